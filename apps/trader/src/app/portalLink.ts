/** SPEC §9 "Shareable link": {origin}/pricer/{tenant_id}. */
export function portalLink(origin: string, tenantId: number): string {
  return `${origin.replace(/\/+$/, '')}/pricer/${tenantId}`;
}

/** Byte-mode capacity of QR versions 1–10 at error correction L (ISO/IEC 18004 table 7). */
const BYTE_CAPACITY_L = [17, 32, 53, 78, 106, 134, 154, 192, 230, 271];

/**
 * SPEC §9 "QR": level L, auto version, 4 px modules and a 4 px margin. The pixel size follows
 * from the version the encoder picks for the link (lower-case URLs are byte mode).
 */
export const QR_MODULE_PX = 4;
export const QR_MARGIN_PX = 4;

export function qrVersionFor(text: string): number {
  const bytes = new TextEncoder().encode(text).length;
  const index = BYTE_CAPACITY_L.findIndex((capacity) => bytes <= capacity);
  if (index === -1) throw new Error('code length overflow');
  return index + 1;
}

/** Side of the rendered code in px, margin included; the SVG's margin is one 4 px module. */
export function qrPixelSize(text: string): number {
  const modules = 17 + 4 * qrVersionFor(text);
  return modules * QR_MODULE_PX + 2 * QR_MARGIN_PX;
}
