/**
 * The demo luminaires' rated power (W), so schedule previews estimate energy: the LoRaWAN
 * controllers drive 60 W (L1) and 90 W (L2) LED heads, the IP controller a 120 W one.
 */
export function ratedPowerOf(modelName: string): number | null {
  if (modelName.startsWith('SLC-L1 ')) return 60;
  if (modelName.startsWith('SLC-L2 ')) return 90;
  if (modelName.startsWith('SLC-IP1 ')) return 120;
  return null;
}
