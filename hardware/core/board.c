#include "board.h"

#include <string.h>

#include "tablebus.h"

void tb_debounce_init(tb_debounce *d, uint8_t value, uint32_t now_ms) {
    d->stable = d->candidate = value;
    d->since_ms = now_ms;
}

int tb_debounce_update(tb_debounce *d, uint8_t raw, uint32_t now_ms, uint16_t hold_ms) {
    if (raw != d->candidate) {
        d->candidate = raw;
        d->since_ms = now_ms;
        return 0;
    }
    if (d->candidate != d->stable && (uint32_t)(now_ms - d->since_ms) >= hold_ms) {
        d->stable = d->candidate;
        return 1;
    }
    return 0;
}

void tb_led_set(tb_led_state *s, const uint8_t *p, uint32_t now_ms) {
    s->pattern = p[0];
    s->r = p[1];
    s->g = p[2];
    s->b = p[3];
    s->count = p[4];
    s->period_ms = tb_get16(p + 5);
    s->started_ms = now_ms;
}

static void fill(uint8_t rgb[TB_RING_LEDS][3], uint8_t r, uint8_t g, uint8_t b) {
    for (unsigned i = 0; i < TB_RING_LEDS; i++) {
        rgb[i][0] = r;
        rgb[i][1] = g;
        rgb[i][2] = b;
    }
}

void tb_led_render(const tb_led_state *s, uint32_t now_ms, uint8_t rgb[TB_RING_LEDS][3]) {
    uint32_t period = s->period_ms ? s->period_ms : 500u;
    uint32_t t = now_ms - s->started_ms;
    uint32_t cycle = t / period, phase = t % period;
    fill(rgb, 0, 0, 0);
    if (s->pattern == TB_LED_OFF || (s->count && cycle >= s->count && s->pattern != TB_LED_SOLID)) return;
    switch (s->pattern) {
    case TB_LED_SOLID:
        fill(rgb, s->r, s->g, s->b);
        break;
    case TB_LED_BLINK:
        if (phase < period / 2) fill(rgb, s->r, s->g, s->b);
        break;
    case TB_LED_SPIN: {
        unsigned lit = (unsigned)(phase * TB_RING_LEDS / period);
        rgb[lit][0] = s->r;
        rgb[lit][1] = s->g;
        rgb[lit][2] = s->b;
        break;
    }
    case TB_LED_PULSE: { /* a triangle wave of brightness: up over the first half, down over the rest */
        /* On an odd period the falling part is one millisecond longer than the rising one: dividing it by the
         * rising half's length gave levels over 255, which wrapped in a byte (bright flashes at the dimmest point). */
        uint32_t rise = period / 2 ? period / 2 : 1;
        uint32_t fall = period > rise ? period - rise : 1;
        uint32_t level = phase < rise ? phase * 255u / rise : (period - phase) * 255u / fall;
        if (level > 255u) level = 255u;
        fill(rgb, (uint8_t)(s->r * level / 255u), (uint8_t)(s->g * level / 255u), (uint8_t)(s->b * level / 255u));
        break;
    }
    default:
        break;
    }
}
