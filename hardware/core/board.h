/* Small helpers the board cores share: a debounced input and the LED ring's animation. Portable C99. */
#ifndef TB_BOARD_H
#define TB_BOARD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A digital input that changes only after it has read the same for hold_ms. */
typedef struct {
    uint8_t stable, candidate;
    uint32_t since_ms;
} tb_debounce;

void tb_debounce_init(tb_debounce *d, uint8_t value, uint32_t now_ms);
/* 1 when the stable value changed on this call. */
int tb_debounce_update(tb_debounce *d, uint8_t raw, uint32_t now_ms, uint16_t hold_ms);

#define TB_RING_LEDS 12u

typedef struct {
    uint8_t pattern, r, g, b, count;
    uint16_t period_ms;
    uint32_t started_ms;
} tb_led_state;

/* Take a Led command's payload (7 bytes, already checked by the node). */
void tb_led_set(tb_led_state *s, const uint8_t *payload, uint32_t now_ms);
/* The colour of each ring LED at now_ms: the glue writes these to the WS2812 ring. */
void tb_led_render(const tb_led_state *s, uint32_t now_ms, uint8_t rgb[TB_RING_LEDS][3]);

#ifdef __cplusplus
}
#endif

#endif
