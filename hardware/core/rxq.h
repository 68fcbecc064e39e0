/* A single-producer, single-consumer byte queue: the ESP32's BLE task puts what the host wrote, loop() takes it and
 * feeds the node. The node (decoder, sequence numbers, the board's state) is only ever touched from loop(); before,
 * BLE writes called it from the BLE task while loop() used it too, with no lock.
 *
 * Lock-free: the producer alone writes `head`, the consumer alone writes `tail`; each publishes with a release store
 * and reads the other's with an acquire load (GCC's __atomic builtins: the host's gcc and the ESP32's xtensa gcc).
 * A write that does not fit is dropped whole and counted, never split: the host retries a command it gets no ack for.
 * Portable C99 otherwise; no heap. */
#ifndef TB_RXQ_H
#define TB_RXQ_H

#include <stddef.h>
#include <stdint.h>

#include "tablebus.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TB_RXQ_SIZE 1024u /* a power of two; several MTU-sized writes */

typedef struct {
    uint8_t buf[TB_RXQ_SIZE];
    uint32_t head; /* written by the producer only: bytes put, ever (wraps) */
    uint32_t tail; /* written by the consumer only: bytes taken, ever (wraps) */
    uint32_t dropped_writes; /* producer only */
    uint32_t dropped_told; /* consumer only: dropped writes already reported to the host */
} tb_rxq;

void tb_rxq_init(tb_rxq *q);
/* Producer: queue all n bytes, or none (returns 0) when they do not fit. */
size_t tb_rxq_put(tb_rxq *q, const uint8_t *data, size_t n);
/* Consumer: take up to max bytes; returns how many. */
size_t tb_rxq_get(tb_rxq *q, uint8_t *out, size_t max);
/* Consumer: writes dropped so far (read with acquire: the producer counts them). */
uint32_t tb_rxq_dropped(tb_rxq *q);
/* Consumer (the sketches' loop()): feed everything queued to the node, and tell the host once, as an Error
 * (TB_E_RX_OVERFLOW, "BLE receive queue full"), when writes were dropped since the last call. Returns the bytes fed. */
size_t tb_rxq_drain(tb_rxq *q, tb_node *node);

#ifdef __cplusplus
}
#endif

#endif
