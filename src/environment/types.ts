import type { MarkerEnvironment } from './evaluate-marker.js';
import type { RecordEntry } from './parse-record.js';
import type { Requirement } from './parse-requirement.js';

/** One installed distribution, read from its .dist-info or .egg-info. */
export interface Distribution {
  /** The Name field as written in METADATA. */
  name: string;
  /** PEP 503 normalized name, the key everything is matched on. */
  key: string;
  version: string;
  /** INSTALLER (pip, uv, conda, …) or null when absent. */
  installer: string | null;
  /** `index`, or what direct_url.json says: `editable file:///…`, `git+https://…@commit`, a URL. */
  source: string;
  requirements: Requirement[];
  /** Requires-Dist lines that are not PEP 508, kept so a check can say so. */
  invalidRequirements: string[];
  requiresPython: string | null;
  /** Normalized Provides-Extra values. */
  providesExtra: string[];
  /** Requires-Dist lines past LIMITS.requirementsPerPackage, not checked (counted, not kept). */
  droppedRequirements?: number;
  /** The site-packages folder holding the metadata folder. */
  sitePackages: string;
  /** The .dist-info / .egg-info path. */
  metadataPath: string;
  /** The system package manager that owns it ('dpkg', 'rpm'): never the target of a delete or a pip fix. */
  managedBy?: string;
  /**
   * RECORD rows, paths resolved relative to sitePackages; empty when there is no RECORD. Read from disk,
   * they are cut from RECORD's text on first use (record-rows.ts searches the text for the checks).
   */
  files: RecordEntry[];
}

/** A version string read from a module file that the runtime compares (e.g. flashinfer's _build_meta.py). */
export interface ModuleVersions {
  /** torch/version.py `cuda`: '13.0', or null for CPU builds; undefined when torch/version.py is absent. */
  torchCuda?: string | null;
  /** `__version__` of flashinfer/_build_meta.py, flashinfer_cubin/…, flashinfer_jit_cache/…, keyed by dist key. */
  buildMeta: Record<string, string>;
}

export interface PythonEnvironment {
  /** The interpreter asked, or null when only folders were given. */
  python: string | null;
  /** e.g. '3.11.7', or '3.11' when only the layout said so; null when unknown. */
  pythonVersion: string | null;
  sitePackages: string[];
  markers: MarkerEnvironment;
  distributions: Distribution[];
  /** Metadata folders that could not be read, with why. */
  unreadable: UnreadablePath[];
  modules: ModuleVersions;
}

/** A metadata folder or file Vigil could not use, with why; `access` when the file system refused it. */
export interface UnreadablePath {
  path: string;
  reason: string;
  /** Permission, not a regular file, over its size limit: the package may be fine, Vigil could not look. */
  access?: boolean;
  /** The system package manager that owns the folder (dpkg, rpm): never a target of a delete. */
  managedBy?: string;
}
