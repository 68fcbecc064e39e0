/* tbsim: the Table Bus reference boards on a pseudo-terminal, for the host's tests and for trying the app without
 * hardware. It runs the real portable cores (core/stand.c, core/obelisk.c, core/tablebus.c) with simulated pins:
 * the hourglass stand and the Obelisk grid reader at once, plus dice-tower results on demand.
 *
 *   tbsim [--link PATH] [--kind generic|stand|obelisk|tower] [--name NAME] [--heartbeat MS] [--version MAJ.MIN]
 *
 * It opens a pty (posix_openpt), prints "ready <path>" (the --link symlink if given, else the pty's own path), then
 * reads script lines on stdin (hardware/PROTOCOL.md, "Simulator script") and prints one line per link event
 * ("ack 3", "led blink 255 0 0 3 300") and "ok <command>" after each script line, "err <why>" for a bad one.
 * "unplug" closes the pty and opens a new one behind the same --link path, like a USB cable pulled and replugged.
 */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "../core/obelisk.h"
#include "../core/stand.h"
#include "../core/tablebus.h"

static int master = -1, slave = -1;
static const char *link_path;
static char pty_path[128];

static tb_node node;
static stand the_stand;
static obelisk the_grid;
static uint16_t adc[TB_GRID_CELLS][OB_SIDES];
static uint8_t tilt_raw = 1, buttons_raw;
static uint32_t bounce_until, button_release[STAND_BUTTONS];
static uint16_t rolls;
static uint32_t garbage_state = 12345u;
static uint32_t last_scan;

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000u + ts.tv_nsec / 1000000u);
}

static void out(const char *line) {
    printf("%s\n", line);
    fflush(stdout);
}

static void pty_write(void *io, const uint8_t *data, size_t n) {
    (void)io;
    if (master < 0) return;
    while (n) {
        ssize_t k = write(master, data, n);
        if (k <= 0) return; /* nobody reading and the pty is full, or unplugged: the bytes are lost, as on a wire */
        data += k;
        n -= (size_t)k;
    }
}

static void log_line(void *io, const char *line) {
    (void)io;
    out(line);
}

static int open_pty(void) {
    master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) || unlockpt(master)) return -1;
    const char *name = ptsname(master);
    if (!name) return -1;
    snprintf(pty_path, sizeof pty_path, "%s", name);
    /* keep the slave open ourselves, raw: bytes pass untouched before the host opens it, and a host closing it
     * is not an unplug */
    slave = open(pty_path, O_RDWR | O_NOCTTY);
    if (slave < 0) return -1;
    struct termios t;
    if (tcgetattr(slave, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(slave, TCSANOW, &t);
    }
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    if (link_path) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s.new", link_path);
        unlink(tmp);
        if (symlink(pty_path, tmp) || rename(tmp, link_path)) return -1;
    }
    return 0;
}

static void close_pty(void) {
    if (master >= 0) close(master);
    if (slave >= 0) close(slave);
    master = slave = -1;
}

static void announce(void) {
    char line[600];
    snprintf(line, sizeof line, "ready %s", link_path ? link_path : pty_path);
    out(line);
}

static uint8_t sim_command(void *board, tb_node *n, uint8_t type, const uint8_t *p, uint8_t len) {
    (void)board;
    uint8_t code = stand_command(&the_stand, n, type, p, len);
    if (type == TB_REQUEST_STATE) obelisk_command(&the_grid, n, type, p, len);
    if (type == TB_LED && code == TB_OK) {
        static const char *names[] = {"off", "solid", "blink", "spin", "pulse"};
        char line[80];
        snprintf(line, sizeof line, "led %s %u %u %u %u %u", names[p[0]], p[1], p[2], p[3], p[4], tb_get16(p + 5));
        out(line);
    }
    return code;
}

static int dir_of(const char *s) {
    const char *dirs = "NESW";
    const char *at = (s && s[0] && !s[1]) ? strchr(dirs, s[0]) : NULL;
    return at ? (int)(at - dirs) : -1;
}

static int parse_uint(const char *s, unsigned long max, unsigned long *v) {
    char *end;
    if (!s || !*s) return -1;
    errno = 0;
    *v = strtoul(s, &end, 10);
    return (errno || *end || *v > max || s[0] == '-') ? -1 : 0;
}

/* one script line; returns an error text or NULL */
static const char *script(char *line, int *quit) {
    char *argv[40];
    int argc = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok && argc < 40; tok = strtok(NULL, " \t\r\n")) argv[argc++] = tok;
    if (!argc) return NULL;
    const char *cmd = argv[0];
    unsigned long a, b;
    uint32_t now = now_ms();
    if (!strcmp(cmd, "flip")) {
        tilt_raw ^= 1u;
        bounce_until = now + 30; /* the ball rattles for a while: the core must debounce it */
    } else if (!strcmp(cmd, "button")) {
        if (argc < 2 || parse_uint(argv[1], STAND_BUTTONS - 1, &a)) return "button N (0-3)";
        buttons_raw |= (uint8_t)(1u << a);
        button_release[a] = now + 60;
    } else if (!strcmp(cmd, "tile")) {
        int d = argc > 3 ? dir_of(argv[3]) : -1;
        if (argc < 4 || parse_uint(argv[1], 24, &a) || parse_uint(argv[2], 27, &b) || d < 0)
            return "tile CELL(0-24) TILE(0-27) N|E|S|W";
        ob_encode_cell((uint8_t)b, (uint8_t)d, adc[a]);
    } else if (!strcmp(cmd, "adc")) {
        unsigned long v[4];
        if (argc < 6 || parse_uint(argv[1], 24, &a)) return "adc CELL N E S W";
        for (int i = 0; i < 4; i++)
            if (parse_uint(argv[2 + i], 4095, &v[i])) return "adc CELL N E S W (0-4095)";
        for (int i = 0; i < 4; i++) adc[a][i] = (uint16_t)v[i];
    } else if (!strcmp(cmd, "dump")) {
        the_grid.dump_due = 1;
    } else if (!strcmp(cmd, "dice")) {
        tb_die dice[TB_MAX_DICE];
        uint8_t n = 0;
        for (int i = 1; i < argc && n < TB_MAX_DICE; i++) {
            unsigned long face, conf = 100;
            char *colon = strchr(argv[i], ':');
            if (colon) {
                *colon = 0;
                if (parse_uint(colon + 1, 100, &conf)) return "dice FACE[:CONFIDENCE] ...";
            }
            if (parse_uint(argv[i], 255, &face)) return "dice FACE[:CONFIDENCE] ...";
            dice[n].die = n;
            dice[n].face = (uint8_t)face;
            dice[n].confidence = (uint8_t)conf;
            n++;
        }
        tb_send_dice(&node, ++rolls, dice, n);
    } else if (!strcmp(cmd, "battery")) {
        if (argc < 2 || parse_uint(argv[1], 100, &a)) return "battery PERCENT [charging]";
        stand_set_battery(&the_stand, (uint8_t)a, argc > 2 && !strcmp(argv[2], "charging"), (uint16_t)(3700 + 5 * a));
        tb_send_battery(&node, the_stand.battery_percent, the_stand.charging, the_stand.millivolts);
    } else if (!strcmp(cmd, "error")) {
        char text[TB_MAX_TEXT + 1] = "";
        if (argc < 2 || parse_uint(argv[1], 255, &a)) return "error CODE [TEXT]";
        for (int i = 2; i < argc; i++) {
            if (i > 2) strncat(text, " ", sizeof text - strlen(text) - 1);
            strncat(text, argv[i], sizeof text - strlen(text) - 1);
        }
        tb_send_error(&node, (uint8_t)a, text);
    } else if (!strcmp(cmd, "hello")) {
        tb_send_hello(&node);
    } else if (!strcmp(cmd, "version")) {
        if (argc < 3 || parse_uint(argv[1], 255, &a) || parse_uint(argv[2], 255, &b)) return "version MAJOR MINOR";
        node.proto_major = (uint8_t)a;
        node.proto_minor = (uint8_t)b;
    } else if (!strcmp(cmd, "heartbeat")) {
        if (argc < 2 || parse_uint(argv[1], 60000, &a) || a < 10) return "heartbeat MS (10-60000)";
        node.heartbeat_ms = (uint16_t)a;
    } else if (!strcmp(cmd, "silent")) {
        node.silent = 1;
    } else if (!strcmp(cmd, "resume")) {
        node.silent = 0;
    } else if (!strcmp(cmd, "garbage")) {
        uint8_t junk[4096];
        if (argc < 2 || parse_uint(argv[1], sizeof junk, &a)) return "garbage N (0-4096) [SEED]";
        if (argc > 2 && !parse_uint(argv[2], 0xFFFFFFFFul, &b)) garbage_state = (uint32_t)b;
        for (unsigned long i = 0; i < a; i++) {
            garbage_state = garbage_state * 1103515245u + 12345u;
            junk[i] = (i % 16 == 0) ? TB_SOF : (uint8_t)(garbage_state >> 16); /* false starts, the worst case */
        }
        if (!node.silent) pty_write(NULL, junk, a);
    } else if (!strcmp(cmd, "truncate")) {
        uint8_t frame[TB_MAX_FRAME], nine = 9;
        size_t size = tb_encode(TB_BUTTON, node.seq++, &nine, 1, frame);
        if (!node.silent) pty_write(NULL, frame, size / 2);
    } else if (!strcmp(cmd, "drop")) {
        if (argc < 2 || parse_uint(argv[1], 255, &a)) return "drop N (0-255)";
        node.drop_rx = (uint8_t)a;
    } else if (!strcmp(cmd, "refuse")) {
        if (argc < 2 || parse_uint(argv[1], 255, &a) || a == 0) return "refuse CODE (1-255)";
        node.refuse = (uint8_t)a;
    } else if (!strcmp(cmd, "unplug")) {
        close_pty();
        tb_decoder_init(&node.rx);
        if (open_pty()) return "cannot open a new pty";
        announce();
    } else if (!strcmp(cmd, "quit")) {
        *quit = 1;
    } else {
        return "unknown command";
    }
    return NULL;
}

static void usage(void) {
    fprintf(stderr, "usage: tbsim [--link PATH] [--kind generic|stand|obelisk|tower] [--name NAME] "
                    "[--heartbeat MS] [--version MAJ.MIN]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *name = "tbsim", *kind = "generic";
    unsigned long heartbeat = 500, vmaj = TB_PROTO_MAJOR, vmin = TB_PROTO_MINOR;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) usage();
        if (!strcmp(argv[i], "--link")) link_path = argv[++i];
        else if (!strcmp(argv[i], "--kind")) kind = argv[++i];
        else if (!strcmp(argv[i], "--name")) name = argv[++i];
        else if (!strcmp(argv[i], "--heartbeat")) {
            if (parse_uint(argv[++i], 60000, &heartbeat) || heartbeat < 10) usage();
        } else if (!strcmp(argv[i], "--version")) {
            if (sscanf(argv[++i], "%lu.%lu", &vmaj, &vmin) != 2 || vmaj > 255 || vmin > 255) usage();
        } else usage();
    }
    if (open_pty()) {
        fprintf(stderr, "tbsim: cannot open a pty: %s\n", strerror(errno));
        return 1;
    }
    uint32_t now = now_ms();
    tb_node_init(&node, pty_write, NULL, sim_command, NULL);
    node.log = log_line;
    node.name = name;
    node.heartbeat_ms = (uint16_t)heartbeat;
    node.proto_major = (uint8_t)vmaj;
    node.proto_minor = (uint8_t)vmin;
    node.fw_major = 1;
    node.fw_minor = 0;
    node.fw_patch = 0;
    node.uid = 0x7AB1E000u;
    node.last_beat_ms = now;
    for (unsigned c = 0; c < TB_GRID_CELLS; c++) ob_encode_cell(0, 0, adc[c]);
    stand_init(&the_stand, &node, tilt_raw, now);
    obelisk_init(&the_grid, &node, adc);
    the_grid.dump_due = 0; /* the simulator's map starts empty and says so only when asked */
    node.kind = !strcmp(kind, "stand") ? TB_KIND_STAND : !strcmp(kind, "obelisk") ? TB_KIND_OBELISK
              : !strcmp(kind, "tower") ? TB_KIND_TOWER : TB_KIND_GENERIC;
    tb_send_hello(&node); /* power-up */
    announce();

    char line[1024];
    size_t line_len = 0;
    int quit = 0, stdin_open = 1;
    while (!quit) {
        struct pollfd fds[2] = {{.fd = stdin_open ? 0 : -1, .events = POLLIN}, {.fd = master, .events = POLLIN}};
        poll(fds, 2, 2);
        now = now_ms();
        if (fds[0].revents & (POLLIN | POLLHUP)) {
            char c;
            ssize_t k = read(0, &c, 1);
            if (k <= 0) {
                stdin_open = 0; /* our driver went away: so do we */
                quit = 1;
            } else if (c == '\n' || line_len == sizeof line - 1) {
                line[line_len] = 0;
                line_len = 0;
                char copy[sizeof line];
                snprintf(copy, sizeof copy, "%s", line);
                const char *err = script(line, &quit);
                char reply[1100];
                char *first = strtok(copy, " \t\r\n");
                if (err) snprintf(reply, sizeof reply, "err %s", err);
                else snprintf(reply, sizeof reply, "ok %s", first ? first : "");
                if (first) out(reply);
            } else {
                line[line_len++] = c;
            }
        }
        if (master >= 0 && (fds[1].revents & POLLIN)) {
            uint8_t buf[512];
            ssize_t k = read(master, buf, sizeof buf);
            if (k > 0) tb_node_rx(&node, buf, (size_t)k);
        }
        /* the pins */
        if (bounce_until && (int32_t)(now - bounce_until) < 0) {
            if (now % 7 == 0) tilt_raw ^= 1u; /* chatter: the debounce must swallow it */
        } else if (bounce_until) {
            bounce_until = 0;
            tilt_raw = (uint8_t)(!the_stand.tilt.stable); /* settle on the new side */
        }
        for (unsigned i = 0; i < STAND_BUTTONS; i++)
            if (button_release[i] && (int32_t)(now - button_release[i]) >= 0) {
                button_release[i] = 0;
                buttons_raw &= (uint8_t)~(1u << i);
            }
        stand_poll(&the_stand, &node, now, tilt_raw, buttons_raw);
        if ((uint32_t)(now - last_scan) >= 10) {
            last_scan = now;
            obelisk_scan(&the_grid, &node, adc);
        }
        tb_node_poll(&node, now);
    }
    close_pty();
    if (link_path) unlink(link_path);
    return 0;
}
