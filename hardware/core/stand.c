#include "stand.h"

#include <string.h>

void stand_init(stand *s, tb_node *node, uint8_t tilt_raw, uint32_t now_ms) {
    memset(s, 0, sizeof *s);
    tb_debounce_init(&s->tilt, tilt_raw ? 1u : 0u, now_ms);
    for (unsigned i = 0; i < STAND_BUTTONS; i++) tb_debounce_init(&s->buttons[i], 0, now_ms);
    s->battery_percent = 100;
    node->kind = TB_KIND_STAND;
}

void stand_set_battery(stand *s, uint8_t percent, uint8_t charging, uint16_t millivolts) {
    s->battery_percent = percent;
    s->charging = charging;
    s->millivolts = millivolts;
}

void stand_poll(stand *s, tb_node *node, uint32_t now_ms, uint8_t tilt_raw, uint8_t buttons_raw) {
    if (tb_debounce_update(&s->tilt, tilt_raw ? 1u : 0u, now_ms, STAND_TILT_HOLD_MS)) {
        s->flips++;
        tb_send_flip(node, s->tilt.stable, s->flips);
    }
    for (unsigned i = 0; i < STAND_BUTTONS; i++) {
        if (tb_debounce_update(&s->buttons[i], (buttons_raw >> i) & 1u, now_ms, STAND_BUTTON_HOLD_MS) &&
            s->buttons[i].stable)
            tb_send_button(node, (uint8_t)i);
    }
    if (s->state_due) { /* the side now up, flip count unchanged: a report, not a new flip */
        s->state_due = 0;
        tb_send_flip(node, s->tilt.stable, s->flips);
    }
    if (s->battery_due) {
        s->battery_due = 0;
        tb_send_battery(node, s->battery_percent, s->charging, s->millivolts);
    }
}

uint8_t stand_command(void *board, tb_node *node, uint8_t type, const uint8_t *payload, uint8_t len) {
    stand *s = board;
    (void)len;
    switch (type) {
    case TB_LED:
        tb_led_set(&s->led, payload, node->now_ms);
        return TB_OK;
    case TB_REQUEST_STATE:
        s->state_due = 1;
        return TB_OK;
    case TB_REQUEST_BATTERY:
        s->battery_due = 1;
        return TB_OK;
    default:
        return TB_E_UNSUPPORTED;
    }
}
