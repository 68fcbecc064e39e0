/* Unit tests of the portable cores, run by `make test` (and so by the host's pytest suite). */
#include <stdio.h>
#include <string.h>

#include "../core/obelisk.h"
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
    uint16_t between[OB_SIDES] = {1550, OB_ADC_NONE, OB_ADC_NONE, OB_ADC_NONE};
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

int main(void) {
    test_crc();
    test_frame_round_trip_and_resync();
    test_node();
    test_stand_debounce();
    test_obelisk();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
