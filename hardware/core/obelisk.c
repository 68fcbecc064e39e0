#include "obelisk.h"

#include <stdio.h>
#include <string.h>

uint8_t ob_classify(uint16_t adc) {
    if (adc >= OB_BAND_S_LO) return OB_FIELD_S;
    if (adc >= OB_BAND_NONE_LO && adc <= OB_BAND_NONE_HI) return OB_FIELD_NONE;
    if (adc >= OB_BAND_N1_LO && adc <= OB_BAND_N1_HI) return OB_FIELD_N1;
    if (adc <= OB_BAND_N2_HI) return OB_FIELD_N2;
    return OB_FIELD_BAD; /* between bands: a magnet half over the sensor, a tile being slid */
}

int ob_decode_cell(const uint16_t adc[OB_SIDES], uint8_t *tile, uint8_t *dir) {
    uint8_t f[OB_SIDES];
    int south = -1, any = 0;
    for (unsigned s = 0; s < OB_SIDES; s++) {
        f[s] = ob_classify(adc[s]);
        if (f[s] == OB_FIELD_BAD) return -1;
        if (f[s] == OB_FIELD_S) {
            if (south >= 0) return -1;
            south = (int)s;
        }
        if (f[s] != OB_FIELD_NONE) any = 1;
    }
    if (!any) {
        *tile = 0;
        *dir = 0;
        return 0;
    }
    if (south < 0) return -1;
    unsigned id = 1, weight = 1;
    for (unsigned k = 1; k < OB_SIDES; k++) {
        id += f[((unsigned)south + k) % OB_SIDES] * weight;
        weight *= 3;
    }
    *tile = (uint8_t)id;
    *dir = (uint8_t)south;
    return 0;
}

void ob_encode_cell(uint8_t tile, uint8_t dir, uint16_t adc[OB_SIDES]) {
    static const uint16_t level[3] = {OB_ADC_NONE, OB_ADC_N1, OB_ADC_N2};
    for (unsigned s = 0; s < OB_SIDES; s++) adc[s] = OB_ADC_NONE;
    if (tile == 0 || tile > 27) return;
    unsigned code = (unsigned)tile - 1;
    adc[dir % OB_SIDES] = OB_ADC_S;
    for (unsigned k = 1; k < OB_SIDES; k++) {
        adc[(dir + k) % OB_SIDES] = level[code % 3];
        code /= 3;
    }
}

void obelisk_init(obelisk *o, tb_node *node, uint16_t adc[TB_GRID_CELLS][OB_SIDES]) {
    memset(o, 0, sizeof *o);
    for (unsigned c = 0; c < TB_GRID_CELLS; c++) {
        uint8_t t = 0, d = 0;
        if (ob_decode_cell(adc[c], &t, &d) == 0) {
            o->tile[c] = o->cand_tile[c] = t;
            o->dir[c] = o->cand_dir[c] = d;
        }
    }
    o->dump_due = 1; /* the map as found at power-up */
    node->kind = TB_KIND_OBELISK;
}

void obelisk_scan(obelisk *o, tb_node *node, uint16_t adc[TB_GRID_CELLS][OB_SIDES]) {
    uint8_t changed[TB_GRID_CELLS];
    unsigned n_changed = 0;
    for (unsigned c = 0; c < TB_GRID_CELLS; c++) {
        uint8_t t, d;
        if (ob_decode_cell(adc[c], &t, &d) != 0) {
            t = OB_UNREADABLE;
            d = 0;
        }
        if (t != o->cand_tile[c] || d != o->cand_dir[c]) {
            o->cand_tile[c] = t;
            o->cand_dir[c] = d;
            o->count[c] = 1;
            continue;
        }
        if (o->count[c] < OB_STABLE_SCANS) o->count[c]++;
        if (o->count[c] != OB_STABLE_SCANS) continue;
        o->count[c]++; /* act once per stable reading */
        if (t == OB_UNREADABLE) {
            if (!o->fault[c]) {
                char text[32];
                o->fault[c] = 1;
                snprintf(text, sizeof text, "cell %u unreadable", c);
                tb_send_error(node, TB_E_SENSOR, text);
            }
            continue;
        }
        o->fault[c] = 0;
        if (t != o->tile[c] || d != o->dir[c]) {
            o->tile[c] = t;
            o->dir[c] = d;
            changed[n_changed++] = (uint8_t)c;
        }
    }
    if (n_changed > OB_DUMP_OVER) {
        o->dump_due = 1;
    } else {
        for (unsigned i = 0; i < n_changed; i++) tb_send_tile(node, changed[i], o->tile[changed[i]], o->dir[changed[i]]);
    }
    if (o->dump_due) {
        o->dump_due = 0;
        tb_send_grid(node, o->tile, o->dir);
    }
}

uint8_t obelisk_command(void *board, tb_node *node, uint8_t type, const uint8_t *payload, uint8_t len) {
    obelisk *o = board;
    (void)node;
    (void)payload;
    (void)len;
    if (type == TB_REQUEST_STATE) {
        o->dump_due = 1;
        return TB_OK;
    }
    return TB_E_UNSUPPORTED;
}
