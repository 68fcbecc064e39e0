// Obelisk tile-grid reader: ESP32 glue around the portable core (../core). Wiring and parts: hardware/README.md.
//
// 25 cells x 4 linear hall sensors (DRV5055A1) = 100 analog channels, read through seven CD74HC4067 16-channel
// multiplexers sharing four select lines; their common pins go to an eighth CD74HC4067 (the bank mux) whose common
// pin is the one ADC input. Channel c (0..99) is mux c / 16, input c % 16; cell = c / 4, side = c % 4 (N, E, S, W). A full scan every 10 ms; the core decodes
// tiles, debounces and sends Tile / Grid / Error messages. Build: `make arduino` in hardware/, then arduino-cli.
#include <BLE2902.h>
#include <BLEDevice.h>
#include <BLEServer.h>

#include "src/core/obelisk.h"
#include "src/core/rxq.h"
#include "src/core/tablebus.h"

static const int PIN_SELECT[4] = {16, 17, 18, 19};  // S0..S3 of the seven sensor muxes
static const int PIN_BANK[3] = {21, 22, 23};         // S0..S2 of the bank mux (its S3 tied to GND)
static const int PIN_ADC = 36;                       // the bank mux's SIG: ADC1 channel 0 (input only)
static const int PIN_LED = 4;         // an LED with 330 ohm to GND, lit while a host is connected over BLE
                                      // (the DevKitC has no LED of its own on GPIO2; GPIO4 is no strapping pin)

static const char *NUS_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e";
static const char *NUS_RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e";
static const char *NUS_TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e";

static tb_node node;
static obelisk grid;
static uint16_t adc[TB_GRID_CELLS][OB_SIDES];
static BLECharacteristic *tx;
static volatile bool ble_connected;

static void write_both(void *io, const uint8_t *data, size_t n) {
    (void)io;
    Serial.write(data, n);
    if (ble_connected && tx) {
        for (size_t i = 0; i < n; i += 20) {
            size_t k = n - i < 20 ? n - i : 20;
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
    void onConnect(BLEServer *) override { ble_connected = true; }
    void onDisconnect(BLEServer *server) override {
        ble_connected = false;
        server->getAdvertising()->start();
    }
};

static void scan_sensors() {
    for (unsigned input = 0; input < 16; input++) {
        for (unsigned b = 0; b < 4; b++) digitalWrite(PIN_SELECT[b], (input >> b) & 1u);
        delayMicroseconds(5);  // the mux and the ADC's sample capacitor settle
        for (unsigned mux = 0; mux < 7; mux++) {
            unsigned channel = mux * 16 + input;
            if (channel >= TB_GRID_CELLS * OB_SIDES) continue;
            for (unsigned b = 0; b < 3; b++) digitalWrite(PIN_BANK[b], (mux >> b) & 1u);
            delayMicroseconds(2);
            adc[channel / OB_SIDES][channel % OB_SIDES] = (uint16_t)analogRead(PIN_ADC);
        }
    }
}

void setup() {
    Serial.begin(115200);
    for (int b = 0; b < 4; b++) pinMode(PIN_SELECT[b], OUTPUT);
    for (int b = 0; b < 3; b++) pinMode(PIN_BANK[b], OUTPUT);
    pinMode(PIN_LED, OUTPUT);
    analogReadResolution(12);
    analogSetAttenuation(ADC_11db);  // 0-3.3 V: the DRV5055's whole ratiometric range

    tb_rxq_init(&ble_rx);
    tb_node_init(&node, write_both, NULL, obelisk_command, &grid);
    node.name = "obelisk-grid";
    node.fw_major = 1;
    node.uid = (uint32_t)(ESP.getEfuseMac() >> 16);
    node.heartbeat_ms = 500;
    scan_sensors();
    obelisk_init(&grid, &node, adc);

    BLEDevice::init("TableBus-obelisk");
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

    tb_send_hello(&node);  // power-up; the first scan sends the map as found
}

void loop() {
    static uint32_t last_scan;
    uint32_t now = millis();
    while (Serial.available()) {
        uint8_t buf[64];
        size_t n = Serial.readBytes(buf, min((int)sizeof buf, Serial.available()));
        tb_node_rx(&node, buf, n);
    }
    tb_rxq_drain(&ble_rx, &node);
    if (now - last_scan >= 10) {
        last_scan = now;
        scan_sensors();
        obelisk_scan(&grid, &node, adc);
    }
    tb_node_poll(&node, now);
    digitalWrite(PIN_LED, ble_connected ? HIGH : LOW);
}
