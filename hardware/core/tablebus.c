/* Table Bus frame codec and board-side link node (see tablebus.h, hardware/PROTOCOL.md). */
#include "tablebus.h"

#include <stdio.h>
#include <string.h>

static uint16_t crc_table[256];
static int crc_ready;

static void crc_init_table(void) {
    for (unsigned i = 0; i < 256; i++) {
        uint16_t c = (uint16_t)(i << 8);
        for (int b = 0; b < 8; b++) c = (uint16_t)((c & 0x8000u) ? (unsigned)(c << 1) ^ 0x1021u : (unsigned)(c << 1));
        crc_table[i] = c;
    }
    crc_ready = 1;
}

uint16_t tb_crc16(const uint8_t *data, size_t n, uint16_t crc) {
    if (!crc_ready) crc_init_table();
    for (size_t i = 0; i < n; i++) crc = (uint16_t)((crc << 8) ^ crc_table[((crc >> 8) ^ data[i]) & 0xFFu]);
    return crc;
}

size_t tb_encode(uint8_t type, uint8_t seq, const uint8_t *payload, size_t len, uint8_t *out) {
    if (len > TB_MAX_PAYLOAD) return 0;
    out[0] = TB_SOF;
    out[1] = (uint8_t)len;
    out[2] = type;
    out[3] = seq;
    if (len) memcpy(out + 4, payload, len);
    uint16_t crc = tb_crc16(out + 1, len + 3, 0xFFFFu);
    out[4 + len] = (uint8_t)crc;
    out[5 + len] = (uint8_t)(crc >> 8);
    return len + TB_OVERHEAD;
}

void tb_decoder_init(tb_decoder *d) { memset(d, 0, sizeof *d); }

static void drop_front(tb_decoder *d, uint16_t k) {
    memmove(d->buf, d->buf + k, (size_t)(d->len - k));
    d->len = (uint16_t)(d->len - k);
}

/* Decode as much of the buffer as possible. */
static void scan(tb_decoder *d, tb_frame_fn fn, void *ctx) {
    for (;;) {
        if (d->len == 0) return;
        if (d->buf[0] != TB_SOF) {
            const uint8_t *sof = memchr(d->buf + 1, TB_SOF, (size_t)(d->len - 1));
            uint16_t k = sof ? (uint16_t)(sof - d->buf) : d->len;
            d->stats.bytes_skipped += k;
            drop_front(d, k);
            continue;
        }
        if (d->len < 2) return;
        uint8_t len = d->buf[1];
        if (len > TB_MAX_PAYLOAD) {
            d->stats.bad_length++;
            d->stats.bytes_skipped++;
            drop_front(d, 1);
            continue;
        }
        uint16_t need = (uint16_t)(len + TB_OVERHEAD);
        if (d->len < need) return;
        uint16_t crc = tb_crc16(d->buf + 1, (size_t)len + 3, 0xFFFFu);
        if (crc != tb_get16(d->buf + 4 + len)) {
            d->stats.bad_crc++;
            d->stats.bytes_skipped++;
            drop_front(d, 1);
            continue;
        }
        d->stats.frames++;
        if (fn) fn(ctx, d->buf[2], d->buf[3], d->buf + 4, len);
        drop_front(d, need);
    }
}

void tb_decoder_resync(tb_decoder *d, tb_frame_fn fn, void *ctx) {
    if (d->len == 0) return;
    d->stats.truncated++;
    d->stats.bytes_skipped++;
    drop_front(d, 1);
    scan(d, fn, ctx);
}

void tb_decoder_feed(tb_decoder *d, const uint8_t *data, size_t n, tb_frame_fn fn, void *ctx) {
    for (size_t i = 0; i < n; i++) {
        if (d->len == 0 && data[i] != TB_SOF) { /* fast path between frames */
            d->stats.bytes_skipped++;
            continue;
        }
        d->buf[d->len++] = data[i];
        /* a frame is complete, or the buffer is full (it never is with a valid length: full means resync) */
        if (d->len == 2 || d->len >= (uint16_t)(d->buf[1] <= TB_MAX_PAYLOAD ? d->buf[1] + TB_OVERHEAD : 2))
            scan(d, fn, ctx);
    }
}

/* ------------------------------------------------------------------------------------------ node */

static void node_log(tb_node *n, const char *line) {
    if (n->log) n->log(n->io, line);
}

void tb_node_init(tb_node *n, tb_write_fn write, void *io, tb_command_fn command, void *board) {
    memset(n, 0, sizeof *n);
    n->write = write;
    n->io = io;
    n->command = command;
    n->board = board;
    n->last_cmd = -1;
    n->proto_major = TB_PROTO_MAJOR;
    n->proto_minor = TB_PROTO_MINOR;
    n->heartbeat_ms = 500;
    n->name = "";
    tb_decoder_init(&n->rx);
}

void tb_node_send(tb_node *n, uint8_t type, const uint8_t *payload, size_t len) {
    uint8_t frame[TB_MAX_FRAME];
    size_t size = tb_encode(type, n->seq, payload, len, frame);
    if (!size) return;
    n->seq++;
    if (!n->silent && n->write) n->write(n->io, frame, size);
}

void tb_send_hello(tb_node *n) {
    uint8_t p[13 + TB_MAX_NAME];
    size_t name_len = n->name ? strlen(n->name) : 0;
    if (name_len > TB_MAX_NAME) name_len = TB_MAX_NAME;
    p[0] = n->proto_major;
    p[1] = n->proto_minor;
    p[2] = n->kind;
    p[3] = n->fw_major;
    p[4] = n->fw_minor;
    p[5] = n->fw_patch;
    tb_put16(p + 6, n->heartbeat_ms);
    tb_put32(p + 8, n->uid);
    p[12] = (uint8_t)name_len;
    if (name_len) memcpy(p + 13, n->name, name_len);
    tb_node_send(n, TB_HELLO, p, 13 + name_len);
}

void tb_send_button(tb_node *n, uint8_t button) { tb_node_send(n, TB_BUTTON, &button, 1); }

void tb_send_flip(tb_node *n, uint8_t upright, uint16_t flips) {
    uint8_t p[3] = {upright ? 1u : 0u, 0, 0};
    tb_put16(p + 1, flips);
    tb_node_send(n, TB_FLIP, p, 3);
}

void tb_send_tile(tb_node *n, uint8_t cell, uint8_t tile, uint8_t dir) {
    uint8_t p[3] = {cell, tile, dir};
    tb_node_send(n, TB_TILE, p, 3);
}

void tb_send_grid(tb_node *n, const uint8_t tiles[TB_GRID_CELLS], const uint8_t dirs[TB_GRID_CELLS]) {
    uint8_t p[2 * TB_GRID_CELLS];
    for (unsigned i = 0; i < TB_GRID_CELLS; i++) {
        p[2 * i] = tiles[i];
        p[2 * i + 1] = dirs[i];
    }
    tb_node_send(n, TB_GRID, p, sizeof p);
}

void tb_send_dice(tb_node *n, uint16_t roll, const tb_die *dice, uint8_t count) {
    uint8_t p[3 + 3 * TB_MAX_DICE];
    if (count > TB_MAX_DICE) count = TB_MAX_DICE;
    tb_put16(p, roll);
    p[2] = count;
    for (unsigned i = 0; i < count; i++) {
        p[3 + 3 * i] = dice[i].die;
        p[4 + 3 * i] = dice[i].face;
        p[5 + 3 * i] = dice[i].confidence > 100 ? 100 : dice[i].confidence;
    }
    tb_node_send(n, TB_DICE, p, 3 + 3u * count);
}

void tb_send_battery(tb_node *n, uint8_t percent, uint8_t charging, uint16_t millivolts) {
    uint8_t p[4] = {percent > 100 ? 100 : percent, charging ? 1u : 0u, 0, 0};
    tb_put16(p + 2, millivolts);
    tb_node_send(n, TB_BATTERY, p, 4);
}

void tb_send_error(tb_node *n, uint8_t code, const char *text) {
    uint8_t p[2 + TB_MAX_TEXT];
    size_t len = text ? strlen(text) : 0;
    if (len > TB_MAX_TEXT) len = TB_MAX_TEXT;
    p[0] = code;
    p[1] = (uint8_t)len;
    if (len) memcpy(p + 2, text, len);
    tb_node_send(n, TB_ERROR, p, 2 + len);
}

static void send_ack(tb_node *n, uint8_t seq) { tb_node_send(n, TB_ACK, &seq, 1); }

static void send_nack(tb_node *n, uint8_t seq, uint8_t code) {
    uint8_t p[2] = {seq, code};
    tb_node_send(n, TB_NACK, p, 2);
}

static void on_host_frame(void *ctx, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t len) {
    tb_node *n = ctx;
    char line[48];
    if (type == TB_HOST_HELLO) {
        node_log(n, "rx host_hello");
        n->last_cmd = -1; /* a new host session: its seq numbers start again */
        tb_send_hello(n);
        return;
    }
    if (type < 0x80) return; /* a board's message (an echo on a shared line): not for us */
    if (n->drop_rx) {
        n->drop_rx--;
        snprintf(line, sizeof line, "dropped %u", seq);
        node_log(n, line);
        return;
    }
    if (n->last_cmd == (int16_t)seq) {
        send_ack(n, seq);
        snprintf(line, sizeof line, "ack %u again", seq);
        node_log(n, line);
        return;
    }
    uint8_t code;
    if (n->refuse) {
        code = n->refuse;
        n->refuse = 0;
    } else if (type != TB_LED && type != TB_REQUEST_STATE && type != TB_REQUEST_BATTERY) {
        code = TB_E_UNKNOWN_TYPE;
    } else if (type == TB_LED && (len < 7 || payload[0] >= TB_LED_PATTERNS)) {
        code = len < 7 ? TB_E_BAD_PAYLOAD : TB_E_BAD_VALUE;
    } else {
        code = n->command ? TB_OK : TB_E_UNSUPPORTED;
    }
    if (code != TB_OK) {
        send_nack(n, seq, code);
        snprintf(line, sizeof line, "nack %u %u", seq, code);
        node_log(n, line);
        return;
    }
    n->last_cmd = seq;
    /* the board only takes note here; an answer (a grid dump) goes out from its next poll, after this ack */
    code = n->command(n->board, n, type, payload, len);
    if (code != TB_OK) { /* the board cannot do it after all: forget it, refuse it */
        n->last_cmd = -1;
        send_nack(n, seq, code);
        snprintf(line, sizeof line, "nack %u %u", seq, code);
        node_log(n, line);
        return;
    }
    send_ack(n, seq);
    snprintf(line, sizeof line, "ack %u", seq);
    node_log(n, line);
}

void tb_node_rx(tb_node *n, const uint8_t *data, size_t len) { tb_decoder_feed(&n->rx, data, len, on_host_frame, n); }

void tb_node_poll(tb_node *n, uint32_t now_ms) {
    n->now_ms = now_ms;
    /* A partial frame that gained no complete frame for TB_RX_STALL_MS: a two-byte glitch (A5 78) would otherwise
     * swallow the next 126 bytes, many HostHellos and commands, before the board heard the host again. */
    if (n->rx.len == 0 || n->rx.stats.frames != n->rx_mark_frames) {
        n->rx_mark_frames = n->rx.stats.frames;
        n->rx_mark_ms = now_ms;
    } else if ((uint32_t)(now_ms - n->rx_mark_ms) >= TB_RX_STALL_MS) {
        tb_decoder_resync(&n->rx, on_host_frame, n);
        n->rx_mark_frames = n->rx.stats.frames;
        n->rx_mark_ms = now_ms;
    }
    if ((uint32_t)(now_ms - n->last_beat_ms) >= n->heartbeat_ms) {
        uint8_t p[6];
        n->last_beat_ms = now_ms;
        tb_put32(p, now_ms);
        uint32_t errs = n->rx.stats.bad_crc + n->rx.stats.bad_length;
        tb_put16(p + 4, (uint16_t)(errs > 0xFFFFu ? 0xFFFFu : errs));
        tb_node_send(n, TB_HEARTBEAT, p, 6);
    }
}
