// Hourglass stand: ESP32 glue around the portable core (../core). Wiring and parts: hardware/README.md.
//
// The core does the protocol and the board logic; this file only reads pins, drives the LED ring, and moves
// bytes over USB serial (115200 8N1) and BLE (Nordic UART service). Build: `make arduino` in hardware/ copies
// the core into src/core, then compile this folder with arduino-cli or the Arduino IDE (board: ESP32 Dev Module,
// libraries: Adafruit NeoPixel; BLE comes with the ESP32 core).
#include <Adafruit_NeoPixel.h>
#include <BLE2902.h>
#include <BLEDevice.h>
#include <BLEServer.h>

#include "src/core/board.h"
#include "src/core/stand.h"
#include "src/core/rxq.h"
#include "src/core/tablebus.h"

// pins (ESP32 DevKitC)
static const int PIN_TILT = 27;        // SW-520D ball tilt switch to GND, internal pull-up: LOW = side A up
static const int PIN_BUTTONS[STAND_BUTTONS] = {25, 26, 32, 33};  // tactile buttons to GND, internal pull-ups
static const int PIN_RING = 13;        // WS2812B ring data: through a 74AHCT125 level shifter powered from 5 V,
                                       // then 330 ohm (the ring wants 0.7 x 5 V = 3.5 V for a high; GPIO gives 3.3)
static const int PIN_BATTERY = 35;     // LiPo through a 100k/100k divider (ADC1, input only)
static const int PIN_CHARGING = 34;    // TP4056 CHRG (open drain, external 10k pull-up): LOW while charging

static const char *NUS_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e";
static const char *NUS_RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e";
static const char *NUS_TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e";

static Adafruit_NeoPixel ring(TB_RING_LEDS, PIN_RING, NEO_GRB + NEO_KHZ800);
static tb_node node;
static stand the_stand;
static BLECharacteristic *tx;
static volatile bool ble_connected;
static uint16_t ble_chunk = 20;

// every frame goes out on both links; a host listens on one of them
static void write_both(void *io, const uint8_t *data, size_t n) {
    (void)io;
    Serial.write(data, n);
    if (ble_connected && tx) {
        for (size_t i = 0; i < n; i += ble_chunk) {   // a frame may span notifications: the host's decoder joins them
            size_t k = n - i < ble_chunk ? n - i : ble_chunk;
            tx->setValue((uint8_t *)data + i, k);
            tx->notify();
        }
    }
}

// BLE writes arrive on the BLE task: they are only queued here; loop() feeds them to the node, which is never
// touched from two tasks (rxq.h). A write that does not fit is dropped whole and reported from loop().
static tb_rxq ble_rx;

class RxCallbacks : public BLECharacteristicCallbacks {
    void onWrite(BLECharacteristic *c) override {
        std::string v = c->getValue();
        tb_rxq_put(&ble_rx, (const uint8_t *)v.data(), v.size());
    }
};

class ServerCallbacks : public BLEServerCallbacks {
    void onConnect(BLEServer *server) override {
        ble_connected = true;
        ble_chunk = 20;  // the minimum MTU, whatever was negotiated: safe everywhere
    }
    void onDisconnect(BLEServer *server) override {
        ble_connected = false;
        server->getAdvertising()->start();
    }
};

static uint8_t read_buttons() {
    uint8_t bits = 0;
    for (unsigned i = 0; i < STAND_BUTTONS; i++)
        if (digitalRead(PIN_BUTTONS[i]) == LOW) bits |= (uint8_t)(1u << i);
    return bits;
}

static void read_battery() {
    uint32_t mv = analogReadMilliVolts(PIN_BATTERY) * 2;  // divider halves it
    int pct = (int)(mv - 3300) * 100 / (4200 - 3300);      // LiPo, linear enough for a table game
    pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
    stand_set_battery(&the_stand, (uint8_t)pct, digitalRead(PIN_CHARGING) == LOW, (uint16_t)mv);
}

void setup() {
    Serial.begin(115200);
    pinMode(PIN_TILT, INPUT_PULLUP);
    for (unsigned i = 0; i < STAND_BUTTONS; i++) pinMode(PIN_BUTTONS[i], INPUT_PULLUP);
    pinMode(PIN_CHARGING, INPUT);
    ring.begin();
    ring.show();

    uint64_t mac = ESP.getEfuseMac();
    tb_rxq_init(&ble_rx);
    tb_node_init(&node, write_both, NULL, stand_command, &the_stand);
    node.name = "hourglass-stand";
    node.fw_major = 1;
    node.fw_minor = 0;
    node.fw_patch = 0;
    node.uid = (uint32_t)(mac >> 16);
    node.heartbeat_ms = 500;
    stand_init(&the_stand, &node, digitalRead(PIN_TILT) == LOW, millis());
    read_battery();

    BLEDevice::init("TableBus-stand");
    BLEServer *server = BLEDevice::createServer();
    server->setCallbacks(new ServerCallbacks());
    BLEService *service = server->createService(NUS_SERVICE);
    tx = service->createCharacteristic(NUS_TX, BLECharacteristic::PROPERTY_NOTIFY);
    tx->addDescriptor(new BLE2902());
    BLECharacteristic *rx = service->createCharacteristic(
        NUS_RX, BLECharacteristic::PROPERTY_WRITE | BLECharacteristic::PROPERTY_WRITE_NR);
    rx->setCallbacks(new RxCallbacks());
    service->start();
    server->getAdvertising()->addServiceUUID(NUS_SERVICE);
    server->getAdvertising()->start();

    tb_send_hello(&node);  // power-up
}

void loop() {
    static uint32_t last_battery, last_ring;
    uint32_t now = millis();
    while (Serial.available()) {
        uint8_t buf[64];
        size_t n = Serial.readBytes(buf, min((int)sizeof buf, Serial.available()));
        tb_node_rx(&node, buf, n);
    }
    tb_rxq_drain(&ble_rx, &node);
    stand_poll(&the_stand, &node, now, digitalRead(PIN_TILT) == LOW, read_buttons());
    tb_node_poll(&node, now);
    if (now - last_battery >= 10000) {
        last_battery = now;
        read_battery();
    }
    if (now - last_ring >= 20) {  // 50 frames/s for the ring animation
        uint8_t rgb[TB_RING_LEDS][3];
        last_ring = now;
        tb_led_render(&the_stand.led, now, rgb);
        for (unsigned i = 0; i < TB_RING_LEDS; i++) ring.setPixelColor(i, rgb[i][0], rgb[i][1], rgb[i][2]);
        ring.show();
    }
}
