/* Unit tests of the portable cores, run by `make test` (and so by the host's pytest suite). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../core/board.h"
#include "../core/obelisk.h"
#include "../core/rxq.h"
#include "../core/stand.h"
#include "../core/tablebus.h"

static int failures, checks;
#define CHECK(cond)                                                                  \
    do {                                                                             \
        checks++;                                                                    \
        if (!(cond)) {                                                               \
            failures++;                                                              \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

/* a wire that stores what a node writes and decodes it back */
static uint8_t wire[8192];
static size_t wire_len;
static void wire_write(void *io, const uint8_t *d, size_t n) {
    (void)io;
    if (wire_len + n <= sizeof wire) memcpy(wire + wire_len, d, n), wire_len += n;
}

typedef struct { uint8_t type, seq, len, payload[TB_MAX_PAYLOAD]; } got_frame;
static got_frame got[256];
static int n_got;
static void collect(void *ctx, uint8_t type, uint8_t seq, const uint8_t *p, uint8_t len) {
    (void)ctx;
    if (n_got < 256) {
        got[n_got].type = type;
        got[n_got].seq = seq;
        got[n_got].len = len;
        memcpy(got[n_got].payload, p, len);
        n_got++;
    }
}
static void decode_wire(void) {
    tb_decoder d;
    tb_decoder_init(&d);
    n_got = 0;
    tb_decoder_feed(&d, wire, wire_len, collect, NULL);
    wire_len = 0;
}
static int count_type(uint8_t type) {
    int k = 0;
    for (int i = 0; i < n_got; i++) k += got[i].type == type;
    return k;
}

static void test_crc(void) {
    CHECK(tb_crc16((const uint8_t *)"123456789", 9, 0xFFFF) == 0x29B1);
    CHECK(tb_crc16((const uint8_t *)"", 0, 0xFFFF) == 0xFFFF);
}

static void test_frame_round_trip_and_resync(void) {
    uint8_t frame[TB_MAX_FRAME], stream[1024];
    uint8_t payload[3] = {1, 2, 3};
    size_t size = tb_encode(TB_TILE, 7, payload, 3, frame);
    CHECK(size == 9);
    /* garbage, a frame, a truncated frame, a frame split byte by byte */
    size_t n = 0;
    const uint8_t junk[] = {0x00, TB_SOF, 0xFF, TB_SOF, 0x02, 0x13, TB_SOF};
    memcpy(stream + n, junk, sizeof junk), n += sizeof junk;
    memcpy(stream + n, frame, size), n += size;
    memcpy(stream + n, frame, size - 3), n += size - 3;
    memcpy(stream + n, frame, size), n += size;
    tb_decoder d;
    tb_decoder_init(&d);
    n_got = 0;
    for (size_t i = 0; i < n; i++) tb_decoder_feed(&d, stream + i, 1, collect, NULL);
    CHECK(n_got == 2);
    CHECK(got[0].type == TB_TILE && got[0].seq == 7 && got[0].len == 3 && got[0].payload[2] == 3);
    CHECK(d.stats.bytes_skipped == sizeof junk + size - 3);
    CHECK(d.stats.bad_length == 2); /* 0xFF after a start marker, and the real start marker read as a length */
    CHECK(tb_encode(TB_ERROR, 0, stream, TB_MAX_PAYLOAD + 1, frame) == 0);
}

static uint8_t last_cmd_type;
static uint8_t test_command(void *board, tb_node *n, uint8_t type, const uint8_t *p, uint8_t len) {
    (void)board, (void)n, (void)p, (void)len;
    last_cmd_type = type;
    return type == TB_REQUEST_BATTERY ? TB_E_UNSUPPORTED : TB_OK;
}

static void host_sends(tb_node *node, uint8_t type, uint8_t seq, const uint8_t *p, size_t len) {
    uint8_t frame[TB_MAX_FRAME];
    size_t size = tb_encode(type, seq, p, len, frame);
    tb_node_rx(node, frame, size);
}

static void test_node(void) {
    tb_node node;
    tb_node_init(&node, wire_write, NULL, test_command, NULL);
    node.name = "t";
    uint8_t hh[2] = {1, 0}, led[7] = {TB_LED_BLINK, 255, 0, 0, 3, 0x2c, 0x01}, bad_led[7] = {9, 0, 0, 0, 0, 0, 0};
    host_sends(&node, TB_HOST_HELLO, 0, hh, 2);
    decode_wire();
    CHECK(n_got == 1 && got[0].type == TB_HELLO && got[0].payload[0] == TB_PROTO_MAJOR && got[0].payload[12] == 1);
    host_sends(&node, TB_LED, 1, led, 7);
    host_sends(&node, TB_LED, 1, led, 7); /* a retry: acked again, not redone */
    decode_wire();
    CHECK(n_got == 2 && got[0].type == TB_ACK && got[0].payload[0] == 1 && got[1].type == TB_ACK);
    host_sends(&node, TB_LED, 2, bad_led, 7);
    host_sends(&node, 0x9E, 3, NULL, 0);
    host_sends(&node, TB_REQUEST_BATTERY, 4, NULL, 0);
    decode_wire();
    CHECK(n_got == 3 && got[0].type == TB_NACK && got[0].payload[1] == TB_E_BAD_VALUE);
    CHECK(got[1].type == TB_NACK && got[1].payload[1] == TB_E_UNKNOWN_TYPE);
    CHECK(got[2].type == TB_NACK && got[2].payload[0] == 4 && got[2].payload[1] == TB_E_UNSUPPORTED);
    node.drop_rx = 1;
    host_sends(&node, TB_REQUEST_STATE, 5, NULL, 0);
    host_sends(&node, TB_REQUEST_STATE, 5, NULL, 0);
    decode_wire();
    CHECK(n_got == 1 && got[0].type == TB_ACK && got[0].payload[0] == 5);
    tb_node_poll(&node, 1000);
    tb_node_poll(&node, 1200);
    tb_node_poll(&node, 1500);
    decode_wire();
    CHECK(count_type(TB_HEARTBEAT) == 2);
}

static void test_stand_debounce(void) {
    tb_node node;
    stand s;
    tb_node_init(&node, wire_write, NULL, stand_command, &s);
    stand_init(&s, &node, 1, 0);
    uint32_t t = 0;
    node.heartbeat_ms = 60000;
    node.last_beat_ms = 0;
    /* the tilt switch chatters for 40 ms, then settles upside down */
    for (; t < 40; t++) stand_poll(&s, &node, t, (t / 3) % 2, 0);
    for (; t < 300; t++) stand_poll(&s, &node, t, 0, t >= 200 && t < 260 ? 1u : 0u);
    decode_wire();
    CHECK(count_type(TB_FLIP) == 1);
    CHECK(n_got >= 1 && got[0].type == TB_FLIP && got[0].payload[0] == 0 && got[0].payload[1] == 1);
    CHECK(count_type(TB_BUTTON) == 1);
    /* a glitch shorter than the hold time is no press */
    for (; t < 400; t++) stand_poll(&s, &node, t, 0, t >= 320 && t < 330 ? 2u : 0u);
    decode_wire();
    CHECK(n_got == 0);
}

static void test_obelisk(void) {
    uint16_t adc[OB_SIDES];
    int all = 1;
    for (unsigned tile = 0; tile <= 27; tile++)
        for (unsigned dir = 0; dir < 4; dir++) {
            uint8_t t, d;
            ob_encode_cell((uint8_t)tile, (uint8_t)dir, adc);
            if (ob_decode_cell(adc, &t, &d) != 0 || t != tile || (tile && d != dir)) all = 0;
        }
    CHECK(all);
    uint16_t two_south[OB_SIDES] = {OB_ADC_S, OB_ADC_NONE, OB_ADC_S, OB_ADC_NONE};
    uint16_t between[OB_SIDES] = {1900, OB_ADC_NONE, OB_ADC_NONE, OB_ADC_NONE}; /* none|N1 */
    uint8_t t, d;
    CHECK(ob_decode_cell(two_south, &t, &d) == -1);
    CHECK(ob_decode_cell(between, &t, &d) == -1);

    static uint16_t grid[TB_GRID_CELLS][OB_SIDES];
    tb_node node;
    obelisk o;
    for (unsigned c = 0; c < TB_GRID_CELLS; c++) ob_encode_cell(0, 0, grid[c]);
    tb_node_init(&node, wire_write, NULL, obelisk_command, &o);
    node.heartbeat_ms = 60000;
    obelisk_init(&o, &node, grid);
    obelisk_scan(&o, &node, grid);
    decode_wire();
    CHECK(n_got == 1 && got[0].type == TB_GRID && got[0].len == 50);
    ob_encode_cell(7, 1, grid[12]);
    obelisk_scan(&o, &node, grid);
    obelisk_scan(&o, &node, grid);
    decode_wire();
    CHECK(n_got == 0); /* not yet stable */
    obelisk_scan(&o, &node, grid);
    obelisk_scan(&o, &node, grid);
    decode_wire();
    CHECK(n_got == 1 && got[0].type == TB_TILE && got[0].payload[0] == 12 && got[0].payload[1] == 7 &&
          got[0].payload[2] == 1);
    memcpy(grid[3], between, sizeof between);
    for (int i = 0; i < 5; i++) obelisk_scan(&o, &node, grid);
    decode_wire();
    CHECK(n_got == 1 && got[0].type == TB_ERROR && got[0].payload[0] == TB_E_SENSOR);
    for (unsigned c = 0; c < 10; c++) ob_encode_cell(5, 2, grid[c]);
    for (int i = 0; i < 4; i++) obelisk_scan(&o, &node, grid);
    decode_wire();
    CHECK(count_type(TB_GRID) == 1 && count_type(TB_TILE) == 0); /* the board was knocked: one dump */
}

/* A two-byte glitch (a start marker and a length of 120) then silence: the board gives up on the false frame after
 * TB_RX_STALL_MS and hears the host again, instead of swallowing the next 126 bytes (many handshakes). */
static void test_glitch_then_silence(void) {
    static const uint8_t glitch[2] = {TB_SOF, 120};
    uint8_t hh[2] = {1, 0};
    tb_node node;
    tb_node_init(&node, wire_write, NULL, test_command, NULL);
    node.heartbeat_ms = 60000;
    tb_node_poll(&node, 0);
    decode_wire();
    /* glitch, then silence: 60 ms later the host says HostHello and is answered at once */
    tb_node_rx(&node, glitch, 2);
    tb_node_poll(&node, 10);
    tb_node_poll(&node, 40);
    CHECK(node.rx.len == 2); /* still waiting, within the 50 ms */
    tb_node_poll(&node, 70);
    CHECK(node.rx.len == 0 && node.rx.stats.truncated == 1);
    host_sends(&node, TB_HOST_HELLO, 0, hh, 2);
    decode_wire();
    CHECK(n_got == 1 && got[0].type == TB_HELLO);
    /* glitch, then the host's handshakes keep coming every 10 ms: they are swallowed by the false frame only until
     * it has gained no complete frame for 50 ms; then every one is found and answered */
    tb_node_rx(&node, glitch, 2);
    int answered_late = 0;
    for (uint32_t t = 100; t <= 200; t += 10) {
        host_sends(&node, TB_HOST_HELLO, 0, hh, 2);
        tb_node_poll(&node, t);
        decode_wire();
        if (t < 150) CHECK(n_got == 0);
        answered_late += count_type(TB_HELLO);
    }
    CHECK(answered_late == 11);
    /* a frame that arrives in two parts within the window is not cut */
    uint8_t frame[TB_MAX_FRAME];
    size_t size = tb_encode(TB_HOST_HELLO, 0, hh, 2, frame);
    uint32_t truncated = node.rx.stats.truncated;
    tb_node_poll(&node, 225);
    tb_node_rx(&node, frame, 3);
    tb_node_poll(&node, 240);
    tb_node_poll(&node, 270);
    tb_node_rx(&node, frame + 3, size - 3);
    decode_wire();
    CHECK(n_got == 1 && got[0].type == TB_HELLO && node.rx.stats.truncated == truncated);
}

/* The LED pulse over every period the Led message can carry (1 to 65535 ms): never brighter than the colour asked
 * for (an odd period made the falling half overflow a byte), dark at the start of each cycle, full at its middle. */
static void test_pulse_every_period(void) {
    uint8_t payload[7] = {TB_LED_PULSE, 200, 100, 250, 0, 0, 0};
    tb_led_state s;
    uint8_t rgb[TB_RING_LEDS][3];
    int too_bright = 0, not_dark = 0, not_full = 0, not_monotonic = 0;
    for (uint32_t period = 1; period <= 65535u; period++) {
        tb_put16(payload + 5, (uint16_t)period);
        tb_led_set(&s, payload, 1000);
        uint32_t rise = period / 2 ? period / 2 : 1;
        uint32_t probes[] = {0, 1, rise - 1, rise, rise + 1, period - 2, period - 1, period / 3, 2 * period / 3};
        for (unsigned k = 0; k < sizeof probes / sizeof probes[0]; k++) {
            uint32_t phase = probes[k] % period;
            tb_led_render(&s, 1000 + phase, rgb);
            if (rgb[0][0] > 200 || rgb[0][1] > 100 || rgb[0][2] > 250) too_bright++;
        }
        tb_led_render(&s, 1000, rgb);
        if (rgb[0][2] != 0) not_dark++;
        tb_led_render(&s, 1000 + rise, rgb);
        if (period > 1 && rgb[0][2] != 250) not_full++;
        if (period <= 2000) { /* every phase: up, then down, never a jump */
            int last = -1, falling = 0;
            for (uint32_t phase = 0; phase < period; phase++) {
                tb_led_render(&s, 1000 + phase, rgb);
                int level = rgb[0][2];
                if (falling ? level > last : level < last) {
                    if (!falling && phase >= rise) falling = 1;
                    else not_monotonic++;
                }
                last = level;
            }
        }
    }
    CHECK(too_bright == 0);
    CHECK(not_dark == 0);
    CHECK(not_full == 0);
    CHECK(not_monotonic == 0);
}

/* The BLE write queue: whole writes in order, a full queue drops whole writes (counted), and a producer thread and
 * a consumer thread running at once (the ESP32's BLE task and loop()) never see a torn or reordered byte. */
static tb_rxq q;
static uint32_t producer_done;
#define RXQ_WRITES 200000u

static void *rxq_producer(void *arg) {
    (void)arg;
    uint8_t chunk[64];
    for (uint32_t seq = 1; seq <= RXQ_WRITES; seq++) {
        uint8_t len = (uint8_t)(4 + seq % 37);
        chunk[0] = len;
        chunk[1] = (uint8_t)seq;
        chunk[2] = (uint8_t)(seq >> 8);
        chunk[3] = (uint8_t)(seq >> 16);
        for (unsigned i = 4; i < len; i++) chunk[i] = (uint8_t)(seq * 31u + i);
        tb_rxq_put(&q, chunk, len);
    }
    __atomic_store_n(&producer_done, 1u, __ATOMIC_RELEASE);
    return NULL;
}

static void test_rxq(void) {
    uint8_t out[TB_RXQ_SIZE], big[TB_RXQ_SIZE + 1];
    tb_rxq_init(&q);
    CHECK(tb_rxq_put(&q, (const uint8_t *)"abc", 3) == 3 && tb_rxq_get(&q, out, 2) == 2 && out[1] == 'b');
    CHECK(tb_rxq_get(&q, out, 10) == 1 && out[0] == 'c' && tb_rxq_get(&q, out, 10) == 0);
    memset(big, 7, sizeof big);
    CHECK(tb_rxq_put(&q, big, sizeof big) == 0 && tb_rxq_dropped(&q) == 1); /* too big: dropped whole */
    for (int i = 0; i < 3; i++) CHECK(tb_rxq_put(&q, big, 400) == (i < 2 ? 400u : 0u)); /* wraps; full */
    CHECK(tb_rxq_get(&q, out, sizeof out) == 800 && tb_rxq_dropped(&q) == 2);

    tb_rxq_init(&q);
    pthread_t producer;
    pthread_create(&producer, NULL, rxq_producer, NULL);
    uint8_t stream[8192];
    size_t have = 0;
    uint32_t chunks = 0, last = 0, torn = 0, reordered = 0, done = 0;
    while (!done || have) {
        size_t n = tb_rxq_get(&q, stream + have, sizeof stream - have);
        have += n;
        size_t pos = 0;
        while (have - pos >= 4 && have - pos >= stream[pos]) {
            uint8_t len = stream[pos];
            uint32_t seq = stream[pos + 1] | (uint32_t)stream[pos + 2] << 8 | (uint32_t)stream[pos + 3] << 16;
            if (len < 4 || len != (uint8_t)(4 + seq % 37)) torn++;
            for (unsigned i = 4; i < len; i++)
                if (stream[pos + i] != (uint8_t)(seq * 31u + i)) torn++;
            if (seq <= last) reordered++;
            last = seq;
            chunks++;
            pos += len ? len : 1;
        }
        memmove(stream, stream + pos, have - pos);
        have -= pos;
        if (!n && __atomic_load_n(&producer_done, __ATOMIC_ACQUIRE)) {
            size_t more = tb_rxq_get(&q, stream + have, sizeof stream - have);
            if (more) have += more;
            else done = 1;
        }
    }
    pthread_join(producer, NULL);
    CHECK(tb_rxq_get(&q, stream, sizeof stream) == 0); /* nothing left over */
    CHECK(torn == 0);
    CHECK(reordered == 0);
    CHECK(chunks + tb_rxq_dropped(&q) == RXQ_WRITES);
    CHECK(chunks > 0);
}

/* loop()'s side of the queue: what the BLE task queued reaches the node whole (a HostHello is answered), and a full
 * queue is told to the host once, as an Error, not on every loop(). */
static void test_rxq_drain(void) {
    static tb_rxq rx;
    uint8_t hh[2] = {1, 0}, frame[TB_MAX_FRAME], big[TB_RXQ_SIZE + 1] = {0};
    size_t size = tb_encode(TB_HOST_HELLO, 0, hh, 2, frame);
    tb_node node;
    tb_node_init(&node, wire_write, NULL, test_command, NULL);
    tb_rxq_init(&rx);
    decode_wire();
    CHECK(tb_rxq_put(&rx, frame, 3) == 3 && tb_rxq_put(&rx, frame + 3, size - 3) == size - 3); /* two BLE writes */
    CHECK(tb_rxq_drain(&rx, &node) == size);
    decode_wire();
    CHECK(n_got == 1 && got[0].type == TB_HELLO);
    CHECK(tb_rxq_drain(&rx, &node) == 0);
    decode_wire();
    CHECK(n_got == 0);
    CHECK(tb_rxq_put(&rx, big, sizeof big) == 0 && tb_rxq_put(&rx, big, sizeof big) == 0); /* two writes dropped */
    tb_rxq_drain(&rx, &node);
    tb_rxq_drain(&rx, &node);
    decode_wire();
    CHECK(n_got == 1 && got[0].type == TB_ERROR && got[0].payload[0] == TB_E_RX_OVERFLOW);
    CHECK(tb_rxq_put(&rx, big, sizeof big) == 0); /* dropped again later: told again */
    tb_rxq_drain(&rx, &node);
    decode_wire();
    CHECK(count_type(TB_ERROR) == 1);
}

int main(void) {
    test_crc();
    test_glitch_then_silence();
    test_pulse_every_period();
    test_rxq();
    test_rxq_drain();
    test_frame_round_trip_and_resync();
    test_node();
    test_stand_debounce();
    test_obelisk();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
