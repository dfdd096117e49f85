import type { ParsedLine } from '../parsing/parsed-line.js';
import type { ServiceSummary } from '../types/diagnosis.js';

const UNIT_MESSAGE = /^([\w:.@-]+\.service): (.+)$/;
const STARTING = /^Starting (\S+\.service)\b|^Starting (.+?)\.\.\.$/;
const STARTED = /^Started (\S+\.service)\b|^Started (.+?)\.$/;
// Before systemd 233: `main process exited`, and a restart as `holdoff time over, scheduling restart.`
const EXITED = /^[Mm]ain process exited, code=(\w+), status=(\S+)/;
const FAILED = /^Failed with result '([\w-]+)'/;
const RESTART = /^Scheduled restart job, restart counter is at (\d+)/;
const OLD_RESTART = /^([\w:.@-]+\.service) holdoff time over, scheduling restart/;
const STOPPING = /^Stopping (\S+\.service)\b|^Stopping (.+?)\.\.\.$/;
const STOPPED = /^Stopped (\S+\.service)\b|^Stopped (.+?)\.$/;
const DEACTIVATED = /^Deactivated successfully/;

/**
 * What a systemd line meant for the service: a start begun (`Starting`) or done (`Started`), a stop asked
 * for (`Stopping`) or done (`Stopped`, `Deactivated successfully`), an exit, a failed exit, a restart.
 */
export type ServiceEvent =
  'start' | 'started' | 'stopping' | 'stopped' | 'failed-exit' | 'exit' | 'restart' | null;

/** Follows systemd's own messages about a unit: how often it started, failed and restarted. */
export class ServiceTracker {
  private unit: string | null;
  private starts = 0;
  private startedOnly = 0;
  private failedStarts = 0;
  private lastExit: string | null = null;
  private restartCounter = 0;
  private seen = false;
  private failedThisStart = false;
  /** `Stopping` was logged: the exit that follows (`status=15/TERM`, a stop timeout's kill) is the stop. */
  private stopAsked = false;
  /** The journal identifiers of the lines that are not systemd's (the server's, when no unit is named). */
  private readonly idents = new Set<string>();

  constructor(unit: string | undefined) {
    this.unit = unit ? normalizeUnit(unit) : null;
  }

  /** Reads a line if it is systemd's; says what it meant for the service. */
  read(line: ParsedLine): ServiceEvent {
    const text = line.text;
    if (this.unit === null) this.noteIdent(line.ident);
    // Only systemd speaks of units: without a journal there is no service to summarise.
    if (line.ident !== 'systemd' && !text.includes('.service')) return null;
    const starting = STARTING.exec(text);
    if (starting && this.isOurs(starting[1] ?? null)) {
      this.seen = true;
      this.starts++;
      this.failedThisStart = false;
      this.stopAsked = false;
      return 'start';
    }
    const started = STARTED.exec(text);
    if (started && this.isOurs(started[1] ?? null)) {
      this.seen = true;
      this.startedOnly++;
      this.stopAsked = false;
      return 'started';
    }
    const stop = STOPPING.exec(text) ?? STOPPED.exec(text);
    if (stop && this.isOurs(stop[1] ?? null)) {
      this.seen = true;
      if (!text.startsWith('Stopping')) return 'stopped';
      this.stopAsked = true;
      return 'stopping';
    }
    const oldRestart = OLD_RESTART.exec(text);
    if (oldRestart && this.isOurs(oldRestart[1] ?? null)) return this.restart(this.restartCounter + 1);
    const unitMessage = UNIT_MESSAGE.exec(text);
    if (!unitMessage || !this.isOurs(unitMessage[1] ?? null)) return null;
    this.seen = true;
    this.unit ??= unitMessage[1] ?? null;
    const body = unitMessage[2] ?? '';
    const exited = EXITED.exec(body);
    if (exited) {
      this.lastExit = `code=${exited[1] ?? ''}, status=${exited[2] ?? ''}`;
      if (this.stopAsked || /^0\b|^0\//.test(exited[2] ?? '')) return 'exit';
      return this.countFailure();
    }
    const failed = FAILED.exec(body);
    if (failed) {
      this.lastExit ??= failed[1] ?? null;
      return this.stopAsked ? 'exit' : this.countFailure();
    }
    if (DEACTIVATED.test(body)) return 'stopped';
    const restart = RESTART.exec(body);
    return restart ? this.restart(Number(restart[1])) : null;
  }

  private restart(counter: number): ServiceEvent {
    this.seen = true;
    this.restartCounter = Math.max(this.restartCounter, counter);
    this.failedThisStart = false;
    this.stopAsked = false;
    return 'restart';
  }

  summary(): ServiceSummary | null {
    if (!this.seen) return null;
    const starts = Math.max(this.starts, this.startedOnly, this.failedStarts);
    return {
      unit: this.unit,
      starts,
      failedStarts: this.failedStarts,
      restartLoop: this.failedStarts >= 2 || this.restartCounter >= 2,
      lastExit: this.lastExit,
    };
  }

  private countFailure(): ServiceEvent {
    // "Main process exited" and "Failed with result" describe one failed start.
    if (!this.failedThisStart) this.failedStarts++;
    this.failedThisStart = true;
    return 'failed-exit';
  }

  /** A journal identifier of the server's lines: asked for only while no unit is known. */
  private noteIdent(ident: string | null): void {
    if (ident !== null && ident !== 'systemd' && this.idents.size < MAX_IDENTS) this.idents.add(ident);
  }

  /**
   * With no unit named, an instance of a template unit (`refresh-policy-routes@enp39s0.service`) named after
   * none of the server's journal identifiers is one of the host's helpers starting beside it, not a restart.
   */
  private isHelperInstance(name: string): boolean {
    const at = name.indexOf('@');
    return at > 0 && this.idents.size > 0 && !this.idents.has(name.slice(0, at));
  }

  private isOurs(name: string | null): boolean {
    if (name === null) return this.unit === null;
    if (this.unit === null)
      return (name.endsWith('.service') || !name.includes(' ')) && !this.isHelperInstance(name);
    return normalizeUnit(name) === this.unit || name.startsWith(this.unit.replace(/\.service$/, ''));
  }
}

const MAX_IDENTS = 16;

function normalizeUnit(name: string): string {
  return name.includes('.') ? name : `${name}.service`;
}
