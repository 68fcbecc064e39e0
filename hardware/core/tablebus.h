/* Table Bus: the frame layout, CRC, decoder and board-side link node of hardware/PROTOCOL.md.
 *
 * Portable C99, no Arduino headers, no heap: the same source runs on the ESP32 boards and in the host simulator.
 * firmware_bridge/tablebus/frame.py and messages.py are the host's side of the same specification.
 */
#ifndef TABLEBUS_H
#define TABLEBUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TB_SOF 0xA5u
#define TB_MAX_PAYLOAD 120u
#define TB_OVERHEAD 6u /* SOF, LEN, TYPE, SEQ, CRC lo, CRC hi */
#define TB_MAX_FRAME (TB_MAX_PAYLOAD + TB_OVERHEAD)

#define TB_PROTO_MAJOR 1u
#define TB_PROTO_MINOR 0u

/* message types: board -> host below 0x80, host -> board from 0x80 */
enum {
    TB_HELLO = 0x01, TB_HEARTBEAT = 0x02, TB_ACK = 0x03, TB_NACK = 0x04,
    TB_DICE = 0x10, TB_GRID = 0x11, TB_TILE = 0x12, TB_BUTTON = 0x13, TB_FLIP = 0x14, TB_BATTERY = 0x15,
    TB_ERROR = 0x1F,
    TB_HOST_HELLO = 0x81, TB_LED = 0x82, TB_REQUEST_STATE = 0x83, TB_REQUEST_BATTERY = 0x84
};

/* board kinds (Hello) */
enum { TB_KIND_GENERIC = 0, TB_KIND_STAND = 1, TB_KIND_OBELISK = 2, TB_KIND_TOWER = 3 };

/* error codes (Nack, Error) */
enum {
    TB_OK = 0, TB_E_UNKNOWN_TYPE = 1, TB_E_BAD_PAYLOAD = 2, TB_E_UNSUPPORTED = 3, TB_E_BUSY = 4,
    TB_E_BAD_VALUE = 5, TB_E_SENSOR = 16, TB_E_RX_OVERFLOW = 17, TB_E_BATTERY_LOW = 18, TB_E_INTERNAL = 19
};

/* LED patterns (Led) */
enum { TB_LED_OFF = 0, TB_LED_SOLID = 1, TB_LED_BLINK = 2, TB_LED_SPIN = 3, TB_LED_PULSE = 4, TB_LED_PATTERNS = 5 };

#define TB_GRID_CELLS 25u
#define TB_MAX_DICE 32u
#define TB_MAX_TEXT 64u
#define TB_MAX_NAME 32u

/* CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor. "123456789" -> 0x29B1. */
uint16_t tb_crc16(const uint8_t *data, size_t n, uint16_t crc);

/* Writes one frame into out (at least TB_MAX_FRAME bytes); returns its length, 0 if the payload is too long. */
size_t tb_encode(uint8_t type, uint8_t seq, const uint8_t *payload, size_t len, uint8_t *out);

typedef struct {
    uint32_t frames, bytes_skipped, bad_length, bad_crc, truncated; /* truncated: partial frames given up on */
} tb_stats;

/* A partial frame that gained no complete frame for this long is a false start (a glitch: a start marker and a
 * length byte, then silence): the node gives up on it and rescans, as the host does (PROTOCOL.md, "Decoding"). */
#define TB_RX_STALL_MS 50u

typedef void (*tb_frame_fn)(void *ctx, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t len);

/* Streaming decoder: feed any bytes; complete good frames go to the callback. On a bad length or CRC it skips one
 * byte past the false start marker and rescans what it holds, so damage costs only the damaged frame. */
typedef struct {
    uint8_t buf[TB_MAX_FRAME];
    uint16_t len;
    tb_stats stats;
} tb_decoder;

void tb_decoder_init(tb_decoder *d);
void tb_decoder_feed(tb_decoder *d, const uint8_t *data, size_t n, tb_frame_fn fn, void *ctx);
/* Give up on the partial frame at the head of the buffer: drop its start marker and rescan the rest. */
void tb_decoder_resync(tb_decoder *d, tb_frame_fn fn, void *ctx);

/* ------------------------------------------------------------------------------------------ board-side node */

typedef struct tb_node tb_node;
typedef void (*tb_write_fn)(void *io, const uint8_t *data, size_t n);
/* A host command for the board (Led, RequestState, RequestBattery): return TB_OK (the node acks, then the board
 * sends any answer from its next poll) or an error code (the node nacks with it). */
typedef uint8_t (*tb_command_fn)(void *board, tb_node *node, uint8_t type, const uint8_t *payload, uint8_t len);
typedef void (*tb_log_fn)(void *io, const char *line);

struct tb_node {
    tb_write_fn write;
    void *io;
    tb_command_fn command;
    void *board;
    tb_log_fn log; /* optional: one line per link event ("ack 4"), the simulator prints them */
    tb_decoder rx;
    uint8_t seq;
    int16_t last_cmd; /* seq of the last command done, -1 none: a resent command is acked again, not redone */
    uint8_t proto_major, proto_minor, kind, fw_major, fw_minor, fw_patch;
    uint16_t heartbeat_ms;
    uint32_t uid;
    const char *name;
    uint32_t now_ms, last_beat_ms;
    uint32_t rx_mark_frames, rx_mark_ms; /* the decoder's frame count when a partial frame was last seen to move */
    /* fault injection for the simulator and tests; 0 on real boards */
    uint8_t drop_rx;   /* ignore this many host frames (no ack: the host must retry) */
    uint8_t refuse;    /* nack the next command with this code */
    uint8_t silent;    /* send nothing (a hung board) */
};

void tb_node_init(tb_node *n, tb_write_fn write, void *io, tb_command_fn command, void *board);
void tb_node_rx(tb_node *n, const uint8_t *data, size_t len);
void tb_node_poll(tb_node *n, uint32_t now_ms); /* heartbeats */
void tb_node_send(tb_node *n, uint8_t type, const uint8_t *payload, size_t len);

void tb_send_hello(tb_node *n);
void tb_send_button(tb_node *n, uint8_t button);
void tb_send_flip(tb_node *n, uint8_t upright, uint16_t flips);
void tb_send_tile(tb_node *n, uint8_t cell, uint8_t tile, uint8_t dir);
void tb_send_grid(tb_node *n, const uint8_t tiles[TB_GRID_CELLS], const uint8_t dirs[TB_GRID_CELLS]);
typedef struct { uint8_t die, face, confidence; } tb_die;
void tb_send_dice(tb_node *n, uint16_t roll, const tb_die *dice, uint8_t count);
void tb_send_battery(tb_node *n, uint8_t percent, uint8_t charging, uint16_t millivolts);
void tb_send_error(tb_node *n, uint8_t code, const char *text);

/* little-endian helpers */
static inline uint16_t tb_get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline void tb_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void tb_put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

#ifdef __cplusplus
}
#endif

#endif
