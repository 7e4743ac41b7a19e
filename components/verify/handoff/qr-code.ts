import QRCode from "qrcode";

/**
 * The QR code of the handoff link, as SVG markup. The options are exported
 * so a test can draw the code of the link it expects and compare.
 */
export const QR_OPTIONS = {
  type: "svg",
  errorCorrectionLevel: "M",
  margin: 2,
  color: { dark: "#0f172a", light: "#ffffff" },
} as const;

export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, QR_OPTIONS);
}

export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
