/* tbcodec: the C frame codec as a filter, so the host's tests can hold the Python codec against it.
 *
 *   tbcodec decode     bytes on stdin -> one line per good frame "TYPE SEQ PAYLOADHEX" (hex, payload "-" if
 *                      empty), then "stats frames=N skipped=N bad_length=N bad_crc=N"
 *   tbcodec encode     lines "TYPE SEQ PAYLOADHEX" (hex) on stdin -> frames on stdout
 *   tbcodec crc TEXT   the CRC of TEXT's bytes, as 0xXXXX
 *   tbcodec cell       lines "N E S W" (a cell's four 12-bit readings) -> "TILE DIR" as the Obelisk core decodes
 *                      them, or "x" when it cannot (the host's tests hold it to the sensor model's decoder)
 *   tbcodec bands      the Obelisk core's band edges, falling: S_LO NONE_HI NONE_LO N1_HI N1_LO N2_HI
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/obelisk.h"
#include "../core/tablebus.h"

static void print_frame(void *ctx, uint8_t type, uint8_t seq, const uint8_t *p, uint8_t len) {
    (void)ctx;
    printf("%02x %02x ", type, seq);
    if (!len) printf("-");
    for (unsigned i = 0; i < len; i++) printf("%02x", p[i]);
    printf("\n");
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "crc")) {
        printf("0x%04X\n", tb_crc16((const uint8_t *)argv[2], strlen(argv[2]), 0xFFFFu));
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "decode")) {
        tb_decoder d;
        uint8_t buf[4096];
        size_t n;
        tb_decoder_init(&d);
        while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) tb_decoder_feed(&d, buf, n, print_frame, NULL);
        printf("stats frames=%u skipped=%u bad_length=%u bad_crc=%u\n", d.stats.frames, d.stats.bytes_skipped,
               d.stats.bad_length, d.stats.bad_crc);
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "encode")) {
        char line[1024], hex[600];
        unsigned type, seq;
        int lineno = 0;
        while (fgets(line, sizeof line, stdin)) {
            lineno++;
            uint8_t payload[TB_MAX_PAYLOAD + 1], frame[TB_MAX_FRAME];
            size_t len = 0;
            if (sscanf(line, "%x %x %599s", &type, &seq, hex) != 3 || type > 255 || seq > 255) {
                fprintf(stderr, "tbcodec: line %d: expected TYPE SEQ PAYLOADHEX\n", lineno);
                return 2;
            }
            if (strcmp(hex, "-")) {
                for (size_t i = 0; hex[i] && hex[i + 1]; i += 2) {
                    int hi = hexval(hex[i]), lo = hexval(hex[i + 1]);
                    if (hi < 0 || lo < 0 || len > TB_MAX_PAYLOAD) {
                        fprintf(stderr, "tbcodec: line %d: bad payload\n", lineno);
                        return 2;
                    }
                    payload[len++] = (uint8_t)(hi << 4 | lo);
                }
            }
            size_t size = tb_encode((uint8_t)type, (uint8_t)seq, payload, len, frame);
            if (!size) {
                fprintf(stderr, "tbcodec: line %d: payload too long\n", lineno);
                return 2;
            }
            fwrite(frame, 1, size, stdout);
        }
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "bands")) {
        printf("%u %u %u %u %u %u\n", OB_BAND_S_LO, OB_BAND_NONE_HI, OB_BAND_NONE_LO, OB_BAND_N1_HI, OB_BAND_N1_LO,
               OB_BAND_N2_HI);
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "cell")) {
        unsigned v[OB_SIDES];
        char line[128];
        while (fgets(line, sizeof line, stdin)) {
            if (sscanf(line, "%u %u %u %u", &v[0], &v[1], &v[2], &v[3]) != 4) {
                fprintf(stderr, "tbcodec: expected N E S W readings\n");
                return 2;
            }
            uint16_t adc[OB_SIDES];
            uint8_t tile, dir;
            for (unsigned i = 0; i < OB_SIDES; i++) adc[i] = (uint16_t)(v[i] > 4095u ? 4095u : v[i]);
            if (ob_decode_cell(adc, &tile, &dir) == 0) printf("%u %u\n", tile, dir);
            else printf("x\n");
        }
        return 0;
    }
    fprintf(stderr, "usage: tbcodec decode | encode | crc TEXT | cell | bands\n");
    return 2;
}
