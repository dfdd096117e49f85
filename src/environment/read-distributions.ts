import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeSource } from './describe-source.js';
import { normalizeName } from './normalize-name.js';
import { convertEggRequires, parseMetadata, type CoreMetadata } from './parse-metadata.js';
import { parseRecord } from './parse-record.js';
import { parseRequirement, type Requirement } from './parse-requirement.js';
import { findSystemOwner } from './system-packages.js';
import type { Distribution } from './types.js';

export interface SiteReading {
  distributions: Distribution[];
  unreadable: { path: string; reason: string; managedBy?: string }[];
}

/** Reads every .dist-info and .egg-info in one site-packages folder. Unreadable ones are reported, not thrown. */
export function readDistributions(sitePackages: string): SiteReading {
  const reading: SiteReading = { distributions: [], unreadable: [] };
  let entries: string[];
  try {
    entries = readdirSync(sitePackages);
  } catch {
    return reading;
  }
  for (const entry of entries.sort()) {
    const isDistInfo = entry.endsWith('.dist-info');
    if (!isDistInfo && !entry.endsWith('.egg-info')) continue;
    const path = join(sitePackages, entry);
    if (entry.startsWith('~')) {
      // pip renames folders to ~name while uninstalling; one left behind means an interrupted uninstall.
      reading.unreadable.push({ path, reason: 'left behind by an interrupted uninstall or upgrade' });
      continue;
    }
    const distribution = isDistInfo ? readDistInfo(path, sitePackages) : readEggInfo(path, sitePackages);
    if (typeof distribution === 'string') {
      const managedBy = findSystemOwner(sitePackages, null);
      reading.unreadable.push({
        path,
        reason: distribution,
        ...(managedBy === undefined ? {} : { managedBy }),
      });
    } else reading.distributions.push(distribution);
  }
  return reading;
}

function readDistInfo(path: string, sitePackages: string): Distribution | string {
  const metadataText = readOptional(join(path, 'METADATA'));
  if (metadataText === null) return 'METADATA is missing';
  const metadata = parseMetadata(metadataText);
  if (metadata === null) return 'METADATA has no Name or Version';
  const record = readOptional(join(path, 'RECORD'));
  return buildDistribution(metadata, metadata.requiresDist, {
    installer: readOptional(join(path, 'INSTALLER'))?.trim() || null,
    source: describeSource(readOptional(join(path, 'direct_url.json'))),
    sitePackages,
    metadataPath: path,
    files: record === null ? [] : parseRecord(record),
  });
}

function readEggInfo(path: string, sitePackages: string): Distribution | string {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    return 'cannot be read';
  }
  const metadataText = readOptional(isFolder ? join(path, 'PKG-INFO') : path);
  if (metadataText === null) return 'PKG-INFO is missing';
  const metadata = parseMetadata(metadataText);
  if (metadata === null) return 'PKG-INFO has no Name or Version';
  const requires = isFolder ? readOptional(join(path, 'requires.txt')) : null;
  const requiresDist = requires === null ? metadata.requiresDist : convertEggRequires(requires);
  return buildDistribution(metadata, requiresDist, {
    installer: null,
    source: 'index',
    sitePackages,
    metadataPath: path,
    files: [],
  });
}

type Location = Pick<Distribution, 'installer' | 'source' | 'sitePackages' | 'metadataPath' | 'files'>;

function managedBy(location: Location): { managedBy?: string } {
  const owner = findSystemOwner(location.sitePackages, location.installer);
  return owner === undefined ? {} : { managedBy: owner };
}

function buildDistribution(metadata: CoreMetadata, requiresDist: string[], location: Location): Distribution {
  const requirements: Requirement[] = [];
  const invalidRequirements: string[] = [];
  for (const line of requiresDist) {
    try {
      requirements.push(parseRequirement(line));
    } catch {
      invalidRequirements.push(line);
    }
  }
  return {
    name: metadata.name,
    key: normalizeName(metadata.name),
    version: metadata.version,
    requirements,
    invalidRequirements,
    requiresPython: metadata.requiresPython,
    providesExtra: metadata.providesExtra.map(normalizeName),
    ...location,
    ...managedBy(location),
  };
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
