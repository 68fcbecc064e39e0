/* The Obelisk tile-grid reader: 25 cells, four linear hall sensors per cell (one under the middle of each side),
 * read through analog multiplexers. Portable C99.
 *
 * Tile code (hardware/TILES.md, where the calculation is): the arrow side of a tile carries a 5 x 1 mm N52 disc,
 * south down; each of the other three sides (clockwise from the arrow) nothing (digit 0), a 5 x 1 mm N52 disc north
 * down (digit 1) or a 6 x 3 mm N52 disc north down (digit 2, which saturates the sensor: far below digit 1); magnet
 * faces 7.0 mm above the hall elements. Tile id = 1 + d1 + 3*d2 + 9*d3 (1..27). No field anywhere: an empty cell
 * (tile 0). A reading between two bands, no south or two: unreadable.
 *
 * The glue fills adc[25][4] (12-bit readings, side 0 N, 1 E, 2 S, 3 W) and calls obelisk_scan() every ~10 ms. */
#ifndef TB_OBELISK_H
#define TB_OBELISK_H

#include "tablebus.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OB_SIDES 4u
#define OB_STABLE_SCANS 3u  /* a cell must read the same this many scans in a row (a tile being slid in) */
#define OB_DUMP_OVER 4u     /* more changes than this in one scan (the board knocked): send a full dump instead */
#define OB_UNREADABLE 0xFFu

/* A DRV5055A1 at 3.3 V (60 mV/mT, south toward it raises the output) read by the ESP32's ADC at 11 dB. Band edges in
 * 12-bit codes, from the worst case over every tolerance (firmware_bridge/tablebus/tilefield.py, hardware/TILES.md;
 * a test holds these to that budget): S from OB_BAND_S_LO up; none OB_BAND_NONE_LO..HI; N1 OB_BAND_N1_LO..HI; N2 up to
 * OB_BAND_N2_HI; anything else is between bands. */
enum { OB_FIELD_NONE = 0, OB_FIELD_N1 = 1, OB_FIELD_N2 = 2, OB_FIELD_S = 3, OB_FIELD_BAD = 0xFF };
#define OB_BAND_S_LO 2510u
#define OB_BAND_NONE_HI 2342u
#define OB_BAND_NONE_LO 1999u
#define OB_BAND_N1_HI 1831u
#define OB_BAND_N1_LO 1074u
#define OB_BAND_N2_HI 806u
/* the nominal readings of each level (the simulator's and the tests' tiles) */
#define OB_ADC_S 2912u
#define OB_ADC_NONE 2180u
#define OB_ADC_N1 1448u
#define OB_ADC_N2 515u

typedef struct {
    uint8_t tile[TB_GRID_CELLS], dir[TB_GRID_CELLS];   /* what the host has been told */
    uint8_t cand_tile[TB_GRID_CELLS], cand_dir[TB_GRID_CELLS];
    uint8_t count[TB_GRID_CELLS];
    uint8_t fault[TB_GRID_CELLS];
    uint8_t dump_due;
} obelisk;

uint8_t ob_classify(uint16_t adc);
/* 0 with tile and dir set, or -1 when the cell cannot be read */
int ob_decode_cell(const uint16_t adc[OB_SIDES], uint8_t *tile, uint8_t *dir);
/* the readings a tile gives (tile 0: empty); the simulator's and the tests' inverse of ob_decode_cell */
void ob_encode_cell(uint8_t tile, uint8_t dir, uint16_t adc[OB_SIDES]);

void obelisk_init(obelisk *o, tb_node *node, uint16_t adc[TB_GRID_CELLS][OB_SIDES]);
void obelisk_scan(obelisk *o, tb_node *node, uint16_t adc[TB_GRID_CELLS][OB_SIDES]);
uint8_t obelisk_command(void *board, tb_node *node, uint8_t type, const uint8_t *payload, uint8_t len);

#ifdef __cplusplus
}
#endif

#endif
