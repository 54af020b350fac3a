import { useRouteLoaderData } from '@remix-run/react';
import { type ChangeEvent, useCallback, useEffect, useRef, useState } from 'react';
import type { PreviousUpload, Upload } from 'tus-js-client';

import { InputField } from '~/components/ui/field';
import { AUDIO_UPLOAD_ID_FIELD, RESUMABLE_UPLOADS_PATH } from '~/schemas/resumable-upload';

import {
  addSample,
  percentSent,
  type ProgressSample,
  progressText,
  uploadSpeed,
} from './upload-progress';

/** The audio input's accept list. */
const AUDIO_ACCEPT = 'audio/*,.mp3,.wav';
const MB = 1024 * 1024;
/** One PATCH per 16 MB: each confirmed by the server, so a cut loses at most one. */
const CHUNK_SIZE = 16 * MB;
/** Retries after a failed chunk (tus-js-client's `retryDelays`), about two minutes in all. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000];

type Phase =
  | { kind: 'idle' }
  /** The same file was picked before (a reloaded tab): resume it, or start over. */
  | { kind: 'offer'; file: File; previous: PreviousUpload }
  | { kind: 'uploading'; file: File; sent: number; total: number; text: string }
  /** Offline, or the retries ran out: it goes on when the connection is back. */
  | { kind: 'paused'; file: File; sent: number; total: number; text: string; reason: string }
  | { kind: 'done'; file: File; id: string }
  | { kind: 'failed'; file: File; message: string };

/** The admin layout's loader data, as far as this field reads it (`maxAudioMb`). */
function useMaxAudioMb(): number | null {
  const data = useRouteLoaderData('routes/admin+/_layout') as { maxAudioMb?: unknown } | undefined;
  return typeof data?.maxAudioMb === 'number' ? data.maxAudioMb : null;
}

const sizeText = (mb: number) => (mb >= 1024 && mb % 1024 === 0 ? `${mb / 1024} GB` : `${mb} MB`);

/** The server's refusal as a sentence (tus answers plain text; our guard JSON). */
function errorMessage(error: unknown): string {
  const response = (error as { originalResponse?: { getStatus(): number; getBody(): string } })
    ?.originalResponse;
  const status = response?.getStatus() ?? 0;
  const body = (response?.getBody() ?? '').trim();
  if (status === 413) return 'The file is larger than the upload limit.';
  if (status === 401 || status === 403) return 'Your session has ended: log in again to upload.';
  if (status >= 400 && status < 500 && body) {
    try {
      const parsed = JSON.parse(body) as { error?: unknown };
      if (typeof parsed.error === 'string') return parsed.error;
    } catch {
      // plain text
    }
    return body;
  }
  return 'The upload failed.';
}

/**
 * The track form's audio field. Without JavaScript: a plain file input named `audioFile`,
 * posted with the form (streamed to disk by the server, up to MAX_AUDIO_MB).
 *
 * With JavaScript, picking a file starts a resumable upload (tus, decision 036) at once:
 * a progress bar with the percentage and the time left, retries after a dropped connection,
 * and, after a reloaded tab, "Resume upload of X" when the same file is picked again
 * (tus-js-client keeps each file's upload URL in localStorage). The file input then loses its
 * name, so the form never sends the bytes again; once the upload is finished the form sends
 * its id in `audioUploadId`. A submit before that waits, and goes out by itself when the
 * upload finishes.
 */
export function ResumableAudioField({
  id,
  label,
  errors,
  current,
}: {
  id: string;
  label: React.ReactNode;
  errors?: string[] | null;
  current?: React.ReactNode;
}) {
  const maxMb = useMaxAudioMb();
  const [enhanced, setEnhanced] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [announcement, setAnnouncement] = useState('');
  const [waitingToSubmit, setWaitingToSubmit] = useState(false);
  const upload = useRef<Upload | null>(null);
  const samples = useRef<ProgressSample[]>([]);
  const lastAnnounced = useRef(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const waiting = useRef(false);
  const phaseRef = useRef<Phase>(phase);
  phaseRef.current = phase;

  useEffect(() => setEnhanced(true), []);

  const announce = useCallback((text: string) => setAnnouncement(text), []);

  /** Wire an upload's callbacks and start it (from its stored URL when resuming). */
  const run = useCallback(
    (tusUpload: Upload, file: File) => {
      upload.current = tusUpload;
      samples.current = [];
      lastAnnounced.current = -1;
      setPhase({ kind: 'uploading', file, sent: 0, total: file.size, text: '0%' });
      announce(`Uploading ${file.name}.`);
      tusUpload.start();
    },
    [announce],
  );

  const createUpload = useCallback(
    async (file: File): Promise<Upload> => {
      const tus = await import('tus-js-client');
      const tusUpload: Upload = new tus.Upload(file, {
        endpoint: RESUMABLE_UPLOADS_PATH,
        chunkSize: CHUNK_SIZE,
        retryDelays: RETRY_DELAYS,
        metadata: { filename: file.name, filetype: file.type },
        // A finished upload is attached to one track (and then gone): never offered again.
        removeFingerprintOnSuccess: true,
        onProgress(sent, total) {
          samples.current = addSample(samples.current, { at: Date.now(), bytes: sent });
          const text = progressText(sent, total, uploadSpeed(samples.current));
          setPhase({ kind: 'uploading', file, sent, total, text });
          const tenth = Math.floor(percentSent(sent, total) / 10);
          if (tenth !== lastAnnounced.current) {
            lastAnnounced.current = tenth;
            if (tenth > 0) announce(`Upload ${text}.`);
          }
        },
        onSuccess() {
          const uploadId = (tusUpload.url ?? '').split('/').pop() ?? '';
          setPhase({ kind: 'done', file, id: uploadId });
          announce(`Upload of ${file.name} finished.`);
        },
        onError(error) {
          const current = phaseRef.current;
          const sent = current.kind === 'uploading' ? current.sent : 0;
          const status =
            (
              error as { originalResponse?: { getStatus(): number } }
            ).originalResponse?.getStatus() ?? 0;
          if (status >= 400 && status < 500) {
            setPhase({ kind: 'failed', file, message: errorMessage(error) });
            announce(`The upload failed: ${errorMessage(error)}`);
            return;
          }
          // No answer (offline, or the server went away): go on when the connection is back.
          const reason = navigator.onLine
            ? 'The connection failed. Trying again…'
            : 'You are offline. The upload goes on when the connection is back.';
          setPhase({
            kind: 'paused',
            file,
            sent,
            total: file.size,
            text: `${percentSent(sent, file.size)}%`,
            reason,
          });
          announce(`Upload paused: ${reason}`);
          const resume = () => {
            window.removeEventListener('online', resume);
            clearTimeout(timer);
            if (upload.current === tusUpload) tusUpload.start();
          };
          const timer = setTimeout(resume, navigator.onLine ? 5000 : 600_000);
          window.addEventListener('online', resume);
        },
      });
      return tusUpload;
    },
    [announce],
  );

  const begin = useCallback(
    async (file: File) => {
      const tusUpload = await createUpload(file);
      const previous = (await tusUpload.findPreviousUploads())[0];
      if (previous) {
        upload.current = tusUpload;
        setPhase({ kind: 'offer', file, previous });
        announce(`An earlier upload of ${file.name} can be resumed.`);
        return;
      }
      run(tusUpload, file);
    },
    [announce, createUpload, run],
  );

  const stop = useCallback(() => {
    const running = upload.current;
    upload.current = null;
    if (running) void running.abort();
  }, []);

  useEffect(() => stop, [stop]);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    stop();
    const file = event.currentTarget.files?.[0];
    setWaitingToSubmit(false);
    waiting.current = false;
    if (!file) {
      setPhase({ kind: 'idle' });
      return;
    }
    void begin(file);
  };

  // A submit while the upload runs waits for it; the form goes out when it is done.
  useEffect(() => {
    const form = inputRef.current?.form;
    if (!enhanced || !form) return;
    const onSubmit = (event: SubmitEvent) => {
      // Conform validates by submitting through an intent button (`__intent__`) and stops
      // that submit itself: only a real save waits.
      if (event.submitter?.getAttribute('name') === '__intent__') return;
      const kind = phaseRef.current.kind;
      if (kind !== 'uploading' && kind !== 'paused' && kind !== 'offer') return;
      event.preventDefault();
      event.stopImmediatePropagation();
      waiting.current = true;
      setWaitingToSubmit(true);
      announce('The form will be sent as soon as the upload has finished.');
    };
    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
  }, [announce, enhanced]);

  useEffect(() => {
    if (phase.kind !== 'done' || !waiting.current) return;
    waiting.current = false;
    setWaitingToSubmit(false);
    inputRef.current?.form?.requestSubmit();
  }, [phase]);

  const hint = `MP3 or WAV, at most ${maxMb ? sizeText(maxMb) : 'the upload limit'}.${
    enhanced
      ? ' The upload starts as soon as you pick the file and survives a lost connection.'
      : ''
  }`;
  // While an upload stands in for the file, the input must not send the bytes again.
  const sendsFile = !enhanced || phase.kind === 'idle' || phase.kind === 'failed';
  const statusId = `${id}-upload-status`;

  return (
    <div>
      <InputField
        label={label}
        field={{ id, errors }}
        hint={hint}
        inputProps={{
          type: 'file',
          name: sendsFile ? 'audioFile' : undefined,
          accept: AUDIO_ACCEPT,
          ref: inputRef,
          onChange: enhanced ? onChange : undefined,
          'aria-controls': enhanced ? statusId : undefined,
        }}
      />
      {current ?? null}
      {enhanced ? (
        <div id={statusId} className="mt-2 space-y-2 text-sm">
          <p className="sr-only" aria-live="polite" role="status">
            {announcement}
          </p>
          {phase.kind === 'offer' ? (
            <div className="flex flex-wrap items-center gap-2 rounded-md border border-border p-3">
              <p className="w-full">
                {phase.file.name} was uploaded (in part or whole) from this browser before.
              </p>
              <button
                type="button"
                className="rounded-md bg-primary px-3 py-1.5 font-medium text-primary-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                onClick={() => {
                  const tusUpload = upload.current;
                  if (!tusUpload) return;
                  tusUpload.resumeFromPreviousUpload(phase.previous);
                  run(tusUpload, phase.file);
                }}
              >
                Resume upload of {phase.file.name}
              </button>
              <button
                type="button"
                className="rounded-md border border-input px-3 py-1.5 font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                onClick={() => {
                  const file = phase.file;
                  void createUpload(file).then((fresh) => run(fresh, file));
                }}
              >
                Start over
              </button>
            </div>
          ) : null}
          {phase.kind === 'uploading' || phase.kind === 'paused' ? (
            <div>
              <div className="flex items-baseline justify-between gap-2">
                <label htmlFor={`${id}-progress`} className="font-medium">
                  {phase.kind === 'paused' ? 'Upload paused' : 'Uploading'} {phase.file.name}
                </label>
                <span className="tabular-nums text-muted-foreground">{phase.text}</span>
              </div>
              <progress
                id={`${id}-progress`}
                className="mt-1 h-2 w-full accent-[hsl(var(--primary))]"
                max={100}
                value={percentSent(phase.sent, phase.total)}
                aria-valuetext={phase.text}
              />
              {phase.kind === 'paused' ? (
                <p className="mt-1 text-muted-foreground">{phase.reason}</p>
              ) : null}
              {waitingToSubmit ? (
                <p className="mt-1 font-medium">
                  The track will be saved as soon as the upload has finished.
                </p>
              ) : null}
            </div>
          ) : null}
          {phase.kind === 'done' ? (
            <p className="font-medium" data-upload-id={phase.id}>
              Uploaded {phase.file.name} (100%). It is saved with the track.
              <input type="hidden" name={AUDIO_UPLOAD_ID_FIELD} value={phase.id} />
            </p>
          ) : null}
          {phase.kind === 'failed' ? (
            <p className="font-medium text-destructive">
              {phase.message} The file will be sent with the form instead.
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
