import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '../types/diagnosis.js';
import { redactDiagnosis } from './redact-diagnosis.js';

const HF = 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567';
const line = `(APIServer pid=1) ERROR huggingface_hub.errors.HfHubHTTPError: 401 for token ${HF}`;

function diagnosisWith(secret: string): Diagnosis {
  return {
    schemaVersion: 1,
    verdict: 'failure',
    rootCause: {
      exception: 'HfHubHTTPError',
      message: `401 for token ${secret}`,
      line,
      lineNumber: 7,
      processes: ['APIServer'],
      raiseSite: { file: '/opt/x.py', line: 3, function: 'f' },
      crashSite: null,
    },
    signature: {
      id: 'hf-auth',
      title: 'Hugging Face refused the token',
      category: 'auth-or-download',
      explanation: `The token ${secret} was refused.`,
      fix: `Replace HF_TOKEN=${secret} with a valid token.`,
      references: ['https://user:pw1@example.com/x'],
    },
    groups: [
      {
        exception: 'HfHubHTTPError',
        message: `401 for token ${secret}`,
        processes: ['APIServer'],
        count: 1,
        firstLineNumber: 7,
      },
    ],
    service: { unit: 'vllm', starts: 1, failedStarts: 1, restartLoop: false, lastExit: null },
    evidence: [
      { lineNumber: 2, text: "non-default args: {'api_key': 'abc123'}" },
      { lineNumber: 7, text: line },
    ],
    symptoms: [
      { exception: null, message: `--hf-token ${secret}`, processes: [], count: 1, firstLineNumber: 9 },
    ],
    engine: 'vllm',
    engineVersion: '0.10.1.1',
    processes: ['APIServer', 'Worker_TP0'],
    noiseSuppressed: 3,
    input: { lines: 10, bytes: 999, formats: ['vllm'], truncatedLines: 0 },
    warnings: [`could not use HF_TOKEN=${secret}`],
  };
}

describe('redactDiagnosis', () => {
  it('redacts every string field, deeply', () => {
    const redacted = redactDiagnosis(diagnosisWith(HF));
    const json = JSON.stringify(redacted);
    expect(json).not.toContain(HF.slice(3));
    expect(json).not.toContain('abc123');
    expect(json).not.toContain('pw1');
    expect(redacted.rootCause?.message).toBe('401 for token hf_[REDACTED]');
    expect(redacted.evidence[0]?.text).toBe("non-default args: {'api_key': '[REDACTED]'}");
    expect(redacted.signature?.references).toEqual(['https://user:[REDACTED]@example.com/x']);
  });

  it('keeps the shape, the numbers and everything without secrets', () => {
    const original = diagnosisWith('hf_short');
    const redacted = redactDiagnosis(original);
    expect(redacted.input).toEqual(original.input);
    expect(redacted.rootCause?.raiseSite).toEqual(original.rootCause?.raiseSite);
    expect(redacted.groups).toEqual(original.groups);
    expect(Object.keys(redacted)).toEqual(Object.keys(original));
  });

  it('does not modify its argument', () => {
    const original = diagnosisWith(HF);
    const copy = structuredClone(original);
    redactDiagnosis(original);
    expect(original).toEqual(copy);
  });

  it('keeps nulls', () => {
    const empty: Diagnosis = {
      ...diagnosisWith(HF),
      verdict: 'no-failure',
      rootCause: null,
      signature: null,
      service: null,
      engine: null,
    };
    expect(redactDiagnosis(empty).rootCause).toBeNull();
  });
});
