import { UsageError } from '../errors.js';

// Names reach journalctl, docker and kubectl as single arguments (never a shell), but a name outside the
// tool's own grammar is a typo or an injected option: refuse it with the grammar, before running anything.

/** systemd unit names: https://www.freedesktop.org/software/systemd/man/systemd.unit.html */
const UNIT_NAME = /^[A-Za-z0-9:_.\\@-]+$/;
const DOCKER_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const UNIT_TYPES = [
  'service',
  'socket',
  'device',
  'mount',
  'automount',
  'swap',
  'target',
  'path',
  'timer',
  'slice',
  'scope',
];

export function validateUnitName(name: string): void {
  if (name.length === 0 || name.length > 256 || !UNIT_NAME.test(name)) {
    throw new UsageError(
      `invalid unit name ${JSON.stringify(name)}: use up to 256 of A-Z a-z 0-9 : _ . \\ @ -, e.g. --unit vllm.service`,
    );
  }
}

/** The name journalctl looks up: as systemd does, a name without a unit type means NAME.service. */
export function qualifyUnitName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && UNIT_TYPES.includes(name.slice(dot + 1)) ? name : `${name}.service`;
}

export function validateContainerName(name: string): void {
  if (name.length > 255 || !DOCKER_NAME.test(name)) {
    throw new UsageError(
      `invalid container name ${JSON.stringify(name)}: start with a letter or digit, then letters, digits, _ . -`,
    );
  }
}

export function validatePodName(name: string): void {
  if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
    throw new UsageError(
      `invalid pod name ${JSON.stringify(name)}: use lower-case letters, digits, - and . (a DNS-1123 subdomain)`,
    );
  }
}

/** Namespaces and container names are DNS-1123 labels. */
export function validateKubeLabel(what: 'namespace' | 'container', name: string): void {
  if (name.length > 63 || !DNS_LABEL.test(name)) {
    throw new UsageError(
      `invalid ${what} name ${JSON.stringify(name)}: use up to 63 lower-case letters, digits and - (a DNS-1123 label)`,
    );
  }
}
