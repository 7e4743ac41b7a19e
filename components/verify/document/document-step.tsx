"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { isSessionProblem } from "../api/flow-api";
import type { DocumentInput } from "../api/types";
import type { StepProps } from "../flow/step-props";
import type { VerifyTranslator } from "../i18n";
import { Actions, Button } from "../ui/button";
import { LiveStatus, Notice, Spinner } from "../ui/notice";
import { StepHeading } from "../ui/step-heading";
import { documentErrorOf } from "./document-errors";
import { DocumentSide } from "./document-side";
import { frameRatioOf, sidesOf, type CapturedImage, type Side } from "./document-sides";
import { DocumentTypePicker } from "./document-type-picker";

/**
 * The document step: pick the type among those the workflow accepts, add a
 * photo of each side it needs (camera or file), send. A refused photo (422)
 * is explained in plain words next to the side to retake. A document that
 * was read but failed (expired, forged, under age) decided the session on the
 * server (`session_status: DECLINED`): the flow moves on to its stop page.
 */
type Result = { kind: "passed" } | { kind: "review" };

type SideKey = Extract<Parameters<VerifyTranslator["has"]>[0], `document.sides.${string}`>;

/** The title and hint of one side of a document type, or null when the catalogue has none for it. */
function sideTextOf(t: VerifyTranslator, documentType: string, side: Side): { title: string; hint: string } | null {
  const title = `document.sides.${documentType}.${side}.title` as SideKey;
  const hint = `document.sides.${documentType}.${side}.hint` as SideKey;
  return t.has(title) ? { title: t(title), hint: t(hint) } : null;
}

export function DocumentStep({ step, api, onDone, newTabUrl, phone }: StepProps) {
  const t = useTranslations("verify");
  const input = step.input as unknown as DocumentInput;
  const types = input.document_types.length ? input.document_types : ["passport", "id_card", "driving_licence"];
  const [documentType, setDocumentType] = useState<string | null>(types.length === 1 ? types[0]! : null);
  const [images, setImages] = useState<Partial<Record<Side, CapturedImage>>>({});
  const [problem, setProblem] = useState<{ message: string; side: Side | null } | null>(null);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const urls = useRef(new Set<string>());

  useEffect(() => {
    const created = urls.current;
    return () => created.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  function setImage(side: Side, blob: Blob | null, fileName = "") {
    setImages((current) => {
      const previous = current[side];
      if (previous) {
        URL.revokeObjectURL(previous.url);
        urls.current.delete(previous.url);
      }
      const next = { ...current };
      if (blob) {
        const url = URL.createObjectURL(blob);
        urls.current.add(url);
        next[side] = { blob, url, fileName };
      } else {
        delete next[side];
      }
      return next;
    });
    if (problem?.side === side || (problem && !problem.side)) setProblem(null);
  }

  function chooseType(type: string) {
    setDocumentType(type);
    (["front", "back"] as Side[]).forEach((side) => setImage(side, null));
    setProblem(null);
  }

  async function submit() {
    if (!documentType) return;
    const sides = sidesOf(documentType);
    if (sides.some((side) => !images[side])) return setProblem({ message: t("document.needsAllSides"), side: null });
    const form = new FormData();
    form.append("document_type", documentType);
    for (const side of sides) form.append(side, images[side]!.blob, images[side]!.fileName || `${side}.jpg`);
    setSending(true);
    setProblem(null);
    try {
      const response = await api.submitDocument(input.endpoint, form);
      if (response.session_status === "DECLINED") return onDone();
      const check = response.checks.find((c) => c.type === "id_verification");
      setResult({ kind: check?.status === "passed" ? "passed" : "review" });
    } catch (err) {
      if (isSessionProblem(err)) return;
      setProblem(documentErrorOf(t, err));
    } finally {
      setSending(false);
    }
  }

  if (result) {
    return (
      <section>
        <StepHeading focusKey="result">{t("document.heading")}</StepHeading>
        {result.kind === "passed" && <Notice tone="success">{t("document.received")}</Notice>}
        {result.kind === "review" && <Notice tone="info">{t("document.review")}</Notice>}
        <Actions>
          <Button onClick={onDone}>{t("common.continue")}</Button>
        </Actions>
      </section>
    );
  }

  const problemSide = documentType && problem?.side ? sideTextOf(t, documentType, problem.side) : null;
  return (
    <section>
      <StepHeading>{t("document.heading")}</StepHeading>
      <p className="mt-3 text-slate-700">{t("document.intro")}</p>
      <DocumentTypePicker types={types} value={documentType} onChange={chooseType} />

      {documentType &&
        sidesOf(documentType).map((side) => {
          const text = sideTextOf(t, documentType, side) ?? { title: side, hint: "" };
          return (
            <DocumentSide
              key={`${documentType}-${side}`}
              title={text.title}
              hint={text.hint}
              ratio={frameRatioOf(documentType)}
              image={images[side] ?? null}
              problem={problem?.side === side ? problem.message : null}
              newTabUrl={newTabUrl}
              phone={phone}
              onImage={(blob, name) => setImage(side, blob, name)}
              onClear={() => setImage(side, null)}
            />
          );
        })}

      {problem && (
        <Notice tone="error">
          {problem.message}
          {problemSide && <span className="sr-only"> {t("document.whichSide", { side: problemSide.title })}</span>}
        </Notice>
      )}

      {documentType && (
        <>
          <LiveStatus className="mt-4">{sending ? <Spinner label={t("document.submitting")} /> : null}</LiveStatus>
          <Actions>
            <Button onClick={submit} disabled={sending}>
              {t("document.submit")}
            </Button>
          </Actions>
        </>
      )}
    </section>
  );
}
