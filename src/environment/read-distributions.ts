import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describeSource } from './describe-source.js';
import { normalizeName } from './normalize-name.js';
import { convertEggRequires, parseMetadata, type CoreMetadata } from './parse-metadata.js';
import { parseRecord, type RecordEntry } from './parse-record.js';
import { keepRecordText } from './record-rows.js';
import { makeRequirementParser, type Requirement } from './parse-requirement.js';
import { LIMITS } from '../limits.js';
import { readRegularFile } from '../system/read-regular-file.js';
import { findSystemOwner } from './system-packages.js';
import type { Distribution, UnreadablePath } from './types.js';

export interface SiteReading {
  distributions: Distribution[];
  unreadable: UnreadablePath[];
}

/** A metadata file that exists but could not be read: not "missing", which would say delete it. */
class UnreadableFile extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    /** The file system refused it (the package may be fine); false: the file itself is damaged. */
    readonly access = true,
  ) {
    super(`${path} ${reason}`);
  }
}

/** Reads every .dist-info and .egg-info in one site-packages folder. Unreadable ones are reported, not thrown. */
export function readDistributions(sitePackages: string): SiteReading {
  const reading: SiteReading = { distributions: [], unreadable: [] };
  let entries: string[];
  try {
    entries = readdirSync(sitePackages);
  } catch (error) {
    // A folder on sys.path that exists but cannot be listed: nothing in it was checked, which must show.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      reading.unreadable.push({
        path: sitePackages,
        reason: `cannot be read (${code ?? 'error'})`,
        access: true,
      });
    }
    return reading;
  }
  // join(sitePackages, entry) for an entry of one plain segment is this prefix and the entry: normalized
  // once for the folder, not once for each of its hundreds of entries.
  const prefix = join(sitePackages, 'x').slice(0, -1);
  const parseRequirement = makeRequirementParser();
  for (const entry of entries.sort()) {
    const isDistInfo = entry.endsWith('.dist-info');
    if (!isDistInfo && !entry.endsWith('.egg-info')) continue;
    const path = prefix + entry;
    if (entry.startsWith('~')) {
      // pip renames folders to ~name while uninstalling; one left behind means an interrupted uninstall.
      reading.unreadable.push({ path, reason: 'left behind by an interrupted uninstall or upgrade' });
      continue;
    }
    if (entry.includes('\uFFFD')) {
      // A name that is not UTF-8 (Latin-1 bytes from an old tarball): Node reads it with U+FFFD in place of
      // the bytes and can open nothing under that string. Said as unreadable, never as "METADATA is missing".
      reading.unreadable.push({
        path,
        reason: 'has a name that is not UTF-8, so vigil cannot open it',
        access: true,
      });
      continue;
    }
    let distribution: Distribution | string;
    try {
      distribution = isDistInfo
        ? readDistInfo(path, sitePackages, parseRequirement)
        : readEggInfo(path, sitePackages, parseRequirement);
    } catch (error) {
      if (!(error instanceof UnreadableFile)) throw error;
      reading.unreadable.push({
        path: error.path,
        reason: error.reason,
        ...(error.access ? { access: true } : {}),
      });
      continue;
    }
    if (typeof distribution === 'string') {
      const managedBy = findSystemOwner(sitePackages, null);
      reading.unreadable.push({
        path,
        reason: distribution,
        ...(managedBy === undefined ? {} : { managedBy }),
      });
      continue;
    }
    reading.distributions.push(distribution);
    const dropped = distribution.droppedRequirements ?? 0;
    if (dropped > 0) {
      reading.unreadable.push({
        path,
        reason: `has ${dropped + LIMITS.requirementsPerPackage} Requires-Dist lines; only the first ${LIMITS.requirementsPerPackage} were checked`,
      });
    }
  }
  return reading;
}

// `path` comes from join(), so `${path}/NAME` is what join(path, NAME) gives, without normalizing it again
// for each of the 2,400 files of a 600-package environment.
function readDistInfo(
  path: string,
  sitePackages: string,
  parseRequirement: RequirementParser,
): Distribution | string {
  const metadataText = readOptional(`${path}/METADATA`, HEADERS);
  if (metadataText === null) return 'METADATA is missing';
  const metadata = parseMetadata(metadataText);
  if (metadata === null) return 'METADATA has no Name or Version';
  const record = readOptional(`${path}/RECORD`);
  return buildDistribution(
    metadata,
    metadata.requiresDist,
    {
      installer: readOptional(`${path}/INSTALLER`)?.trim() || null,
      source: describeSource(readRare(`${path}/direct_url.json`)),
      sitePackages,
      metadataPath: path,
    },
    record,
    parseRequirement,
  );
}

function readEggInfo(
  path: string,
  sitePackages: string,
  parseRequirement: RequirementParser,
): Distribution | string {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch (error) {
    throw new UnreadableFile(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const metadataText = readOptional(isFolder ? join(path, 'PKG-INFO') : path, HEADERS);
  if (metadataText === null) return 'PKG-INFO is missing';
  const metadata = parseMetadata(metadataText);
  if (metadata === null) return 'PKG-INFO has no Name or Version';
  const requires = isFolder ? readOptional(join(path, 'requires.txt')) : null;
  const requiresDist = requires === null ? metadata.requiresDist : convertEggRequires(requires);
  return buildDistribution(
    metadata,
    requiresDist,
    {
      installer: null,
      source: 'index',
      sitePackages,
      metadataPath: path,
    },
    null,
    parseRequirement,
  );
}

/** parseRequirement, each marker text parsed once for the whole folder (see makeRequirementParser). */
type RequirementParser = (raw: string) => Requirement;

type Location = Pick<Distribution, 'installer' | 'source' | 'sitePackages' | 'metadataPath'>;

/**
 * RECORD stays text: its rows are cut out on the first read of `files`, and the checks that walk every row
 * search the text instead (record-rows.ts), so most of a big environment's rows never become objects.
 */
function buildDistribution(
  metadata: CoreMetadata,
  requiresDist: string[],
  location: Location,
  record: string | null,
  parseRequirement: RequirementParser,
): Distribution {
  const requirements: Requirement[] = [];
  const invalidRequirements: string[] = [];
  const dropped = Math.max(0, requiresDist.length - LIMITS.requirementsPerPackage);
  for (const line of requiresDist.slice(0, LIMITS.requirementsPerPackage)) {
    try {
      requirements.push(parseRequirement(line));
    } catch {
      invalidRequirements.push(line);
    }
  }
  let files: RecordEntry[] | undefined;
  // Fields one by one, not spread: a literal with spreads and accessors costs several times a plain one.
  const distribution: Distribution = {
    name: metadata.name,
    key: normalizeName(metadata.name),
    version: metadata.version,
    requirements,
    invalidRequirements,
    requiresPython: metadata.requiresPython,
    providesExtra: metadata.providesExtra.map(normalizeName),
    installer: location.installer,
    source: location.source,
    sitePackages: location.sitePackages,
    metadataPath: location.metadataPath,
    get files(): RecordEntry[] {
      return (files ??= record === null ? [] : parseRecord(record));
    },
    set files(value: RecordEntry[]) {
      files = value;
    },
  };
  if (dropped > 0) distribution.droppedRequirements = dropped;
  const owner = findSystemOwner(location.sitePackages, location.installer);
  if (owner !== undefined) distribution.managedBy = owner;
  if (record !== null) keepRecordText(distribution, record);
  return distribution;
}

// METADATA and PKG-INFO are decoded as far as parseMetadata looks: their headers, not the long
// description; all of it must be UTF-8, as Python reads it.
const HEADERS = { upToBlankLine: true, checkUtf8: true };

/**
 * readOptional for a file most folders lack (direct_url.json: only URL and editable installs have one).
 * A stat that finds nothing returns without the error object a failed open builds, 600 times over in a
 * big environment; anything else (there, or another error) goes to the open that reports it as before.
 */
function readRare(path: string): string | null {
  let absent = false;
  try {
    absent = statSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    // ENOTDIR, EACCES, ELOOP…: the open below says what it is, as it did without the stat.
  }
  return absent ? null : readOptional(path);
}

/** The file's text, or null when it is not there; one that is there but unreadable throws UnreadableFile. */
function readOptional(
  path: string,
  options: { upToBlankLine?: boolean; checkUtf8?: boolean } = {},
): string | null {
  const reading = readRegularFile(path, LIMITS.packageFileBytes, options);
  if (reading.kind === 'text' && reading.notUtf8 !== undefined) {
    // importlib.metadata reads it with encoding='utf-8' and raises UnicodeDecodeError: pip and the server
    // cannot read the package either, so its requirements are not "not installed", they are unknown.
    const { byte, line } = reading.notUtf8;
    const hex = byte.toString(16).toUpperCase().padStart(2, '0');
    // An .egg-info may be the PKG-INFO file itself.
    const folder = /\.(?:dist|egg)-info$/.test(path) ? path : dirname(path);
    throw new UnreadableFile(
      folder,
      `${folder === path ? 'it' : basename(path)} is not UTF-8 (byte 0x${hex} on line ${line}): Python's importlib.metadata cannot read it (UnicodeDecodeError), so its name, version and requirements are unknown`,
      false,
    );
  }
  if (reading.kind === 'text') return reading.text;
  if (reading.kind === 'missing') return null;
  throw new UnreadableFile(path, reading.reason);
}
