#include "rxq.h"

#include <string.h>

#if defined(__GNUC__)
#define LOAD_ACQ(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE_REL(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#else /* a single core without reordering: plain volatile access is enough */
#define LOAD_ACQ(p) (*(volatile uint32_t *)(p))
#define STORE_REL(p, v) (*(volatile uint32_t *)(p) = (v))
#endif

void tb_rxq_init(tb_rxq *q) { memset(q, 0, sizeof *q); }

size_t tb_rxq_put(tb_rxq *q, const uint8_t *data, size_t n) {
    uint32_t head = q->head;               /* ours */
    uint32_t tail = LOAD_ACQ(&q->tail);    /* the consumer's: what it has taken is free again */
    uint32_t used = head - tail;
    if (n > TB_RXQ_SIZE - used) {
        STORE_REL(&q->dropped_writes, q->dropped_writes + 1u);
        return 0;
    }
    for (size_t i = 0; i < n; i++) q->buf[(head + i) & (TB_RXQ_SIZE - 1u)] = data[i];
    STORE_REL(&q->head, head + (uint32_t)n); /* the bytes are in place before the consumer can see them */
    return n;
}

size_t tb_rxq_get(tb_rxq *q, uint8_t *out, size_t max) {
    uint32_t tail = q->tail;               /* ours */
    uint32_t head = LOAD_ACQ(&q->head);    /* the producer's: bytes up to here are written */
    size_t n = head - tail;
    if (n > max) n = max;
    for (size_t i = 0; i < n; i++) out[i] = q->buf[(tail + i) & (TB_RXQ_SIZE - 1u)];
    STORE_REL(&q->tail, tail + (uint32_t)n); /* read out before the producer may overwrite */
    return n;
}

uint32_t tb_rxq_dropped(tb_rxq *q) { return LOAD_ACQ(&q->dropped_writes); }

size_t tb_rxq_drain(tb_rxq *q, tb_node *node) {
    uint8_t buf[64];
    size_t n, fed = 0;
    while ((n = tb_rxq_get(q, buf, sizeof buf)) > 0) {
        tb_node_rx(node, buf, n);
        fed += n;
    }
    uint32_t dropped = tb_rxq_dropped(q);
    if (dropped != q->dropped_told) {
        q->dropped_told = dropped;
        tb_send_error(node, TB_E_RX_OVERFLOW, "BLE receive queue full");
    }
    return fed;
}
