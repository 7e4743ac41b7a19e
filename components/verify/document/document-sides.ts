/** Which sides each document type needs, and the frame guide's proportions. */
export type Side = "front" | "back";

export function sidesOf(documentType: string): Side[] {
  return documentType === "passport" ? ["front"] : ["front", "back"];
}

/** Width / height: an ID-1 card (licence, identity card) is 85.6 x 54 mm; a passport page (ID-3) 125 x 88 mm. */
export function frameRatioOf(documentType: string): number {
  return documentType === "passport" ? 125 / 88 : 85.6 / 54;
}

/** The server rejects files over 20 MB (413 image_too_large); the page says so before uploading. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export type CapturedImage = { blob: Blob; url: string; fileName: string };
