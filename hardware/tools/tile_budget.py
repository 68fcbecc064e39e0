"""The Obelisk tile code's budget, from the parts' datasheet figures: what each side of a tile puts on its hall
sensor, what the ESP32 reads, the worst case over every tolerance, and the margins between the bands.

Run from the repository's root:  python hardware/tools/tile_budget.py   (hardware/TILES.md shows its output)

The model is firmware_bridge/tablebus/tilefield.py, the same the simulated board reads tiles with.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from firmware_bridge.tablebus import tilefield as tf  # noqa: E402


def show(design: tf.Design) -> None:
    b = tf.budget(design)
    print(f"\n{design.name}")
    print(f"  tolerances: gap ±{design.gap_tol} mm, tile play ±{design.lateral_tol} mm, Br ±{design.br_tol:.0%}, "
          f"sensitivity ±{design.sens_tol:.0%}, quiescent ±{design.vq_tol_mv:g} mV, ADC ±{design.adc_tol_mv:g} mV, "
          f"noise ±{design.noise_codes:g} codes; a neighbour's magnet {2 * design.inset:g} mm aside")
    print(f"  {'side':6} {'field mT':>9} {'sensor mV':>10} {'code':>6} {'worst case codes':>18}")
    for level in tf.LEVELS:
        field = b.fields[level]
        mv = tf.sensor_mv(field)
        lo, hi = b.ranges[level]
        print(f"  {level:6} {field:9.1f} {mv:10.0f} {tf.adc_code(mv):6d} {lo:8d} .. {hi:5d}")
    print(f"  thresholds S|none, none|N1, N1|N2: {b.thresholds}; margins between bands: {b.margins} codes")
    if b.saturated:
        print(f"  outside the sensor's ±{tf.SENSOR_LINEAR_MT:g} mT or the ADC's 150-2450 mV: {', '.join(b.saturated)}")
    print(f"  band edges (obelisk.h): {tf.bands(b)}" if b.readable else "  UNREADABLE: neighbouring bands overlap")


def main() -> None:
    print("On-axis field of a disc magnet, z below its face: B = Br/2 [(z+L)/sqrt(R^2+(z+L)^2) - z/sqrt(R^2+z^2)]")
    m = tf.Magnet(6.0, 2.0, "N52")
    print(f"  6 x 2 mm N52 at 3 mm: {tf.field_mT(m, 3.0):.0f} mT; two stacked: {tf.field_mT(m.stacked(2), 3.0):.0f} mT"
          f" (DRV5055A1 at 3.3 V: {tf.SENSOR_MV_PER_MT:g} mV/mT, linear to ±{tf.SENSOR_LINEAR_MT:g} mT)")
    for design in (tf.OLD, tf.CURRENT):
        show(design)


if __name__ == "__main__":
    main()
