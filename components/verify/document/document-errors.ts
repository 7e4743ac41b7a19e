import { FlowApiError } from "../api/flow-api";
import { genericErrorMessage } from "../flow/api-error-message";
import type { VerifyTranslator } from "../i18n";
import type { Side } from "./document-sides";

/**
 * A refused upload in plain words, and which photo to retake: 422
 * invalid_image (no barcode or MRZ found, a blurry or tiny photo), 422
 * no_face / face_rescan_required (no clear portrait on the front), 413
 * image_too_large, 400 invalid_request (type not accepted), 429.
 */
export function documentErrorOf(t: VerifyTranslator, err: unknown): { message: string; side: Side | null } {
  if (!(err instanceof FlowApiError)) return { message: t("common.unexpectedError"), side: null };
  const field = typeof err.data?.field === "string" ? err.data.field : null;
  const side: Side | null = field === "front" || field === "back" ? field : null;
  switch (err.code) {
    case "invalid_image": {
      const reason = typeof err.data?.reason === "string" ? err.data.reason : null;
      if (reason === "barcode_not_found") return { message: t("document.errors.barcode_not_found"), side: side ?? "back" };
      if (reason === "mrz_not_found") return { message: t("document.errors.mrz_not_found"), side };
      if (reason) return { message: t("document.errors.unreadable"), side };
      return { message: t("document.errors.blurry"), side };
    }
    case "no_face":
      return { message: t("document.errors.no_face"), side: "front" };
    case "face_rescan_required":
      return { message: t("document.errors.face_rescan_required"), side: "front" };
    case "image_too_large":
      return { message: t("document.errors.image_too_large"), side };
    case "invalid_request":
      return { message: t("document.errors.type_not_allowed"), side: null };
    case "feature_failed":
      return { message: t("document.errors.unavailable"), side: null };
    default:
      return { message: genericErrorMessage(t, err), side: null };
  }
}
