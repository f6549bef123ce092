import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

// Scanning an e-ticket's QR code with the phone's camera (the door's page, issue 55): an
// enhancement over typing the code, so nothing of it is drawn before the page is hydrated, nor on
// a browser that has no camera to offer. It reads codes until one is a ticket's, then stops the
// camera and hands the code on; the page submits it as if it had been typed.

/** Why the camera could not be used, each with its own words for the door. */
export type CameraProblem = "denied" | "absent" | "unsupported" | "failed";

/** What getUserMedia's refusal means for the door (its DOMException's name says which it was). */
export function cameraProblemOf(error: unknown): CameraProblem {
  const name = typeof error === "object" && error !== null && "name" in error ? String(error.name) : "";
  switch (name) {
    // The person said no, or the browser did for them (a policy, an insecure page).
    case "NotAllowedError":
    case "PermissionDeniedError":
    case "SecurityError":
      return "denied";
    // No camera at all, or none that can film as asked.
    case "NotFoundError":
    case "DevicesNotFoundError":
    case "OverconstrainedError":
      return "absent";
    case "NotSupportedError":
    case "TypeError":
      return "unsupported";
    // NotReadableError (another app has the camera), AbortError and anything else.
    default:
      return "failed";
  }
}

/**
 * The longer side, in pixels, of the frame handed to the script decoder: a code held up to the
 * camera fills much of it, and a phone's full-size frame would take several times as long to read.
 */
const DECODE_SIZE = 800;
/** Between two looks at the camera: a few a second is quick enough for a code held up to it. */
const SCAN_INTERVAL_MS = 150;

/** The texts of the QR codes in the video's current frame. */
type QrReader = (video: HTMLVideoElement) => Promise<string[]>;

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorType {
  getSupportedFormats(): Promise<string[]>;
  new (options: { formats: string[] }): { detect(source: HTMLVideoElement): Promise<DetectedBarcode[]> };
}

/**
 * The browser's own detector where it has one that reads QR codes (Chrome on Android); otherwise
 * jsQR, fetched only now (Safari on iPhone has no detector), so no page's first load carries it.
 */
async function qrReader(): Promise<QrReader> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorType }).BarcodeDetector;
  if (Detector && (await Detector.getSupportedFormats()).includes("qr_code")) {
    const detector = new Detector({ formats: ["qr_code"] });
    return async (video) => (await detector.detect(video)).map((found) => found.rawValue);
  }
  const { default: jsQR } = await import("jsqr");
  const canvas = document.createElement("canvas");
  const drawing = canvas.getContext("2d", { willReadFrequently: true });
  return async (video) => {
    const scale = Math.min(1, DECODE_SIZE / Math.max(video.videoWidth, video.videoHeight));
    const width = Math.round(video.videoWidth * scale);
    const height = Math.round(video.videoHeight * scale);
    if (!drawing || !width || !height) return [];
    canvas.width = width;
    canvas.height = height;
    drawing.drawImage(video, 0, 0, width, height);
    // An e-ticket's code is dark on light (use-cases/barcode.server.ts): no need to try it inverted.
    const found = jsQR(drawing.getImageData(0, 0, width, height).data, width, height, {
      inversionAttempts: "dontInvert",
    });
    return found ? [found.data] : [];
  };
}

type ScanState =
  | { step: "idle" }
  | { step: "starting" }
  | { step: "scanning"; notATicket: boolean }
  | { step: "problem"; problem: CameraProblem };

export function CameraScan({
  codeOf,
  onCode,
}: {
  /** The ticket code a QR code's text is, as the typed form takes it; null for any other QR code. */
  codeOf: (text: string) => string | null;
  /** Called once with the code read; the camera is already off. */
  onCode: (code: string) => void;
}) {
  const { t } = useTranslation();
  const [available, setAvailable] = useState(false);
  const [state, setState] = useState<ScanState>({ step: "idle" });
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Each start is a new run; stopping ends the current one, so a camera granted after the door
  // pressed stop (or left the page) is turned off at once rather than left filming.
  const run = useRef(0);

  const stopCamera = () => {
    run.current += 1;
    clearTimeout(timer.current);
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
    if (video.current) video.current.srcObject = null;
  };

  useEffect(() => {
    // Only after hydration, and only where a camera can be asked for (a secure page).
    setAvailable(typeof navigator.mediaDevices?.getUserMedia === "function");
    // Leaving the page (with script, or into the back-forward cache) turns the camera off.
    const leave = () => {
      stopCamera();
      setState({ step: "idle" });
    };
    window.addEventListener("pagehide", leave);
    return () => {
      window.removeEventListener("pagehide", leave);
      stopCamera();
    };
  }, []);

  const start = async () => {
    stopCamera();
    const current = run.current;
    setState({ step: "starting" });
    let granted: MediaStream;
    try {
      granted = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: "environment" } },
      });
    } catch (error) {
      // Only the camera's own refusal says why: refused, absent, or unable to start.
      if (current === run.current) setState({ step: "problem", problem: cameraProblemOf(error) });
      return;
    }
    if (current !== run.current) {
      granted.getTracks().forEach((track) => track.stop());
      return;
    }
    stream.current = granted;
    try {
      const read = await qrReader();
      const element = video.current;
      if (current !== run.current) return;
      if (!element) throw new Error("no video element to show the camera in");
      element.srcObject = granted;
      await element.play();
      setState({ step: "scanning", notATicket: false });
      const look = async () => {
        if (current !== run.current) return;
        let texts: string[] = [];
        try {
          texts = await read(element);
        } catch {
          // A frame not ready to read (the video between two sizes): the next look tries again.
        }
        if (current !== run.current) return;
        const code = texts.map(codeOf).find((found): found is string => found !== null);
        if (code) {
          stopCamera();
          setState({ step: "idle" });
          onCode(code);
          return;
        }
        if (texts.length > 0) setState({ step: "scanning", notATicket: true });
        timer.current = setTimeout(() => void look(), SCAN_INTERVAL_MS);
      };
      void look();
    } catch {
      // The decoder could not be fetched (a lost connection) or the video would not play.
      if (current !== run.current) return;
      stopCamera();
      setState({ step: "problem", problem: "failed" });
    }
  };

  if (!available) return null;
  const active = state.step === "starting" || state.step === "scanning";
  const message =
    state.step === "starting"
      ? t("staff.door.camera.starting")
      : state.step === "scanning"
        ? t(state.notATicket ? "staff.door.camera.notATicket" : "staff.door.camera.scanning")
        : state.step === "problem"
          ? t(`staff.door.camera.${state.problem}`)
          : "";
  return (
    <div className="camera-scan">
      {/* One button that starts and stops, so focus stays on it either way. */}
      <button
        type="button"
        className="button button--secondary"
        onClick={() => {
          if (active) {
            stopCamera();
            setState({ step: "idle" });
          } else void start();
        }}
      >
        {t(active ? "staff.door.camera.stop" : "staff.door.camera.scan")}
      </button>
      <p
        className={state.step === "problem" ? "camera-scan__message field-error" : "camera-scan__message"}
        role="status"
      >
        {message}
      </p>
      {/* Muted and inline: iPhones play nothing else without a tap, and never inline otherwise. */}
      <video
        ref={video}
        className="camera-scan__video"
        hidden={!active}
        muted
        playsInline
        aria-label={t("staff.door.camera.video")}
      />
    </div>
  );
}
