/* The hourglass stand: a tilt switch tells which side is up, buttons, a 12-LED ring, a LiPo. Portable C99.
 *
 * The glue reads the pins and calls stand_poll() often (every few ms); the core debounces, sends Flip and Button
 * messages, answers Led / RequestState / RequestBattery through the node, and says what the ring shows. */
#ifndef TB_STAND_H
#define TB_STAND_H

#include "board.h"
#include "tablebus.h"

#ifdef __cplusplus
extern "C" {
#endif

#define STAND_BUTTONS 4u
#define STAND_TILT_HOLD_MS 80u   /* a ball tilt switch rattles for tens of ms when turned over */
#define STAND_BUTTON_HOLD_MS 25u

typedef struct {
    tb_debounce tilt;
    tb_debounce buttons[STAND_BUTTONS];
    uint16_t flips;
    tb_led_state led;
    uint8_t state_due, battery_due;
    uint8_t battery_percent, charging;
    uint16_t millivolts;
} stand;

void stand_init(stand *s, tb_node *node, uint8_t tilt_raw, uint32_t now_ms);
/* tilt_raw: 1 when side A is up; buttons_raw: bit i set while button i is held. */
void stand_poll(stand *s, tb_node *node, uint32_t now_ms, uint8_t tilt_raw, uint8_t buttons_raw);
void stand_set_battery(stand *s, uint8_t percent, uint8_t charging, uint16_t millivolts);
/* the node's command callback (board = the stand) */
uint8_t stand_command(void *board, tb_node *node, uint8_t type, const uint8_t *payload, uint8_t len);

#ifdef __cplusplus
}
#endif

#endif
