#!/usr/bin/env node
// write-environment.mjs — writes a synthetic Python environment for `vigil check`: a vLLM/torch/CUDA core
// (real names, versions and requirements, all satisfied) filled up with generic libraries to N distributions.
//
//   node bench/write-environment.mjs [--count 600] [--out bench/out/env-600] [--seed 3]
//
// Layout: OUT/lib/python3.12/site-packages/<name>-<version>.dist-info/{METADATA,RECORD,INSTALLER,WHEEL}, plus
// torch/version.py and flashinfer/_build_meta.py (the module files vigil reads). RECORD rows are realistic in
// number (torch ~3,000, most libraries 10–80) and in kind (the CUDA wheels share nvidia/, one in five has a
// console script in ../../../bin), and METADATA has the fields no check reads (Classifier, Project-URL), so
// reading the environment costs what a real one does.
import process from 'node:process';
import console from 'node:console';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const CU = '; platform_system == "Linux" and platform_machine == "x86_64"';
// [name, version, requirements, RECORD rows]
const CORE = [
  [
    'vllm',
    '0.10.1.1',
    [
      'regex',
      'cachetools',
      'psutil',
      'sentencepiece',
      'numpy',
      'requests>=2.26.0',
      'tqdm',
      'blake3',
      'py-cpuinfo',
      'transformers>=4.55.0',
      'tokenizers>=0.21.1',
      'protobuf',
      'fastapi[standard]>=0.115.0',
      'aiohttp',
      'openai>=1.99.1',
      'pydantic>=2.11.7',
      'prometheus_client>=0.18.0',
      'pillow',
      'prometheus-fastapi-instrumentator>=7.0.0',
      'tiktoken>=0.6.0',
      'lm-format-enforcer<0.11,>=0.10.11',
      'outlines_core==0.2.10',
      'diskcache==5.6.3',
      'lark==1.2.2',
      'xgrammar==0.1.21; platform_machine == "x86_64" or platform_machine == "aarch64"',
      'typing_extensions>=4.10',
      'filelock>=3.16.1',
      'partial-json-parser',
      'pyzmq>=25.0.0',
      'msgspec',
      'gguf>=0.13.0',
      'mistral_common[audio,image]>=1.8.2',
      'opencv-python-headless>=4.11.0',
      'pyyaml',
      'six>=1.16.0; python_version > "3.11"',
      'setuptools<80,>=77.0.3; python_version > "3.11"',
      'einops',
      'compressed-tensors==0.10.2',
      'depyf==0.19.0',
      'cloudpickle',
      'watchfiles',
      'python-json-logger',
      'scipy',
      'ninja',
      'pybase64',
      'cbor2',
      'setproctitle',
      'openai-harmony>=0.0.3',
      'numba==0.61.2',
      'ray[cgraph]>=2.48.0',
      'torch==2.7.1',
      'torchaudio==2.7.1',
      'torchvision==0.22.1',
      'xformers==0.0.31; platform_system == "Linux" and platform_machine == "x86_64"',
      'tensorizer==2.10.1; extra == "tensorizer"',
      'runai-model-streamer; extra == "runai"',
    ],
    1500,
  ],
  [
    'torch',
    '2.7.1',
    [
      'filelock',
      'typing-extensions>=4.10.0',
      'setuptools; python_version >= "3.12"',
      'sympy>=1.13.3',
      'networkx',
      'jinja2',
      'fsspec',
      `nvidia-cuda-nvrtc-cu12==12.6.77${CU}`,
      `nvidia-cuda-runtime-cu12==12.6.77${CU}`,
      `nvidia-cuda-cupti-cu12==12.6.80${CU}`,
      `nvidia-cudnn-cu12==9.5.1.17${CU}`,
      `nvidia-cublas-cu12==12.6.4.1${CU}`,
      `nvidia-cufft-cu12==11.3.0.4${CU}`,
      `nvidia-curand-cu12==10.3.7.77${CU}`,
      `nvidia-cusolver-cu12==11.7.1.2${CU}`,
      `nvidia-cusparse-cu12==12.5.4.2${CU}`,
      `nvidia-cusparselt-cu12==0.6.3${CU}`,
      `nvidia-nccl-cu12==2.26.2${CU}`,
      `nvidia-nvtx-cu12==12.6.77${CU}`,
      `nvidia-nvjitlink-cu12==12.6.85${CU}`,
      `nvidia-cufile-cu12==1.11.1.6${CU}`,
      `triton==3.3.1${CU}`,
      'optree>=0.13.0; extra == "optree"',
      'opt-einsum>=3.3; extra == "opt-einsum"',
    ],
    3000,
  ],
  ['torchaudio', '2.7.1', ['torch==2.7.1'], 120],
  ['torchvision', '0.22.1', ['numpy', 'torch==2.7.1', 'pillow!=8.3.*,>=5.3.0'], 300],
  ['xformers', '0.0.31', ['numpy', 'torch==2.7.1'], 400],
  ['triton', '3.3.1', ['setuptools>=40.8.0'], 600],
  [
    'flashinfer-python',
    '0.2.11',
    ['numpy', 'torch', 'ninja', 'requests', 'einops', 'nvidia-ml-py', 'pynvml'],
    900,
  ],
  ['nvidia-cuda-nvrtc-cu12', '12.6.77', [], 20],
  ['nvidia-cuda-runtime-cu12', '12.6.77', [], 40],
  ['nvidia-cuda-cupti-cu12', '12.6.80', [], 60],
  ['nvidia-cudnn-cu12', '9.5.1.17', ['nvidia-cublas-cu12'], 40],
  ['nvidia-cublas-cu12', '12.6.4.1', [], 30],
  ['nvidia-cufft-cu12', '11.3.0.4', [], 20],
  ['nvidia-curand-cu12', '10.3.7.77', [], 20],
  [
    'nvidia-cusolver-cu12',
    '11.7.1.2',
    ['nvidia-cublas-cu12', 'nvidia-nvjitlink-cu12', 'nvidia-cusparse-cu12'],
    20,
  ],
  ['nvidia-cusparse-cu12', '12.5.4.2', ['nvidia-nvjitlink-cu12'], 20],
  ['nvidia-cusparselt-cu12', '0.6.3', [], 20],
  ['nvidia-nccl-cu12', '2.26.2', [], 20],
  ['nvidia-nvtx-cu12', '12.6.77', [], 30],
  ['nvidia-nvjitlink-cu12', '12.6.85', [], 20],
  ['nvidia-cufile-cu12', '1.11.1.6', [], 20],
  ['nvidia-ml-py', '12.575.51', [], 10],
  ['pynvml', '12.0.0', ['nvidia-ml-py<13.0.0a0,>=12.0.0'], 10],
  [
    'transformers',
    '4.55.2',
    [
      'filelock',
      'huggingface-hub<1.0,>=0.34.0',
      'numpy>=1.17',
      'packaging>=20.0',
      'pyyaml>=5.1',
      'regex!=2019.12.17',
      'requests',
      'tokenizers<0.22,>=0.21',
      'safetensors>=0.4.3',
      'tqdm>=4.27',
      'accelerate>=0.26.0; extra == "torch"',
      'torch>=2.1; extra == "torch"',
    ],
    2500,
  ],
  [
    'huggingface-hub',
    '0.34.4',
    [
      'filelock',
      'fsspec>=2023.5.0',
      'packaging>=20.9',
      'pyyaml>=5.1',
      'requests',
      'tqdm>=4.42.1',
      'typing-extensions>=3.7.4.3',
      'hf-xet<2.0.0,>=1.1.3; platform_machine == "x86_64" or platform_machine == "amd64" or platform_machine == "arm64" or platform_machine == "aarch64"',
    ],
    180,
  ],
  ['hf-xet', '1.1.8', [], 10],
  ['tokenizers', '0.21.4', ['huggingface-hub<1.0,>=0.16.4'], 20],
  ['safetensors', '0.6.2', [], 20],
  [
    'accelerate',
    '1.10.0',
    [
      'numpy<3.0.0,>=1.17',
      'packaging>=20.0',
      'psutil',
      'pyyaml',
      'torch>=2.0.0',
      'huggingface_hub>=0.21.0',
      'safetensors>=0.4.3',
    ],
    150,
  ],
  [
    'fastapi',
    '0.116.1',
    [
      'starlette<0.48.0,>=0.40.0',
      'pydantic!=1.8,!=1.8.1,!=2.0.0,!=2.0.1,!=2.1.0,<3.0.0,>=1.7.4',
      'typing-extensions>=4.8.0',
      'fastapi-cli[standard]>=0.0.8; extra == "standard"',
      'httpx>=0.23.0; extra == "standard"',
      'jinja2>=3.1.5; extra == "standard"',
      'python-multipart>=0.0.18; extra == "standard"',
      'email-validator>=2.0.0; extra == "standard"',
      'uvicorn[standard]>=0.12.0; extra == "standard"',
    ],
    80,
  ],
  ['fastapi-cli', '0.0.8', ['typer>=0.15.1', 'uvicorn[standard]>=0.15.0', 'rich-toolkit>=0.14.8'], 20],
  ['starlette', '0.47.2', ['anyio<5,>=3.6.2', 'typing-extensions>=4.10.0; python_version < "3.13"'], 60],
  [
    'uvicorn',
    '0.35.0',
    [
      'click>=7.0',
      'h11>=0.8',
      'httptools>=0.6.3; extra == "standard"',
      'uvloop>=0.15.1; (sys_platform != "win32" and (sys_platform != "cygwin" and platform_python_implementation != "PyPy")) and extra == "standard"',
      'watchfiles>=0.13; extra == "standard"',
      'websockets>=10.4; extra == "standard"',
      'python-dotenv>=0.13; extra == "standard"',
      'pyyaml>=5.1; extra == "standard"',
    ],
    70,
  ],
  [
    'pydantic',
    '2.11.7',
    [
      'annotated-types>=0.6.0',
      'pydantic-core==2.33.2',
      'typing-extensions>=4.12.2',
      'typing-inspection>=0.4.0',
    ],
    200,
  ],
  ['pydantic-core', '2.33.2', ['typing-extensions!=4.7.0,>=4.6.0'], 15],
  [
    'openai',
    '1.99.9',
    [
      'anyio<5,>=3.5.0',
      'distro<2,>=1.7.0',
      'httpx<1,>=0.23.0',
      'jiter<1,>=0.4.0',
      'pydantic<3,>=1.9.0',
      'sniffio',
      'tqdm>4',
      'typing-extensions<5,>=4.11',
    ],
    900,
  ],
  [
    'ray',
    '2.48.0',
    [
      'click>=7.0',
      'filelock',
      'jsonschema',
      'msgpack<2.0.0,>=1.0.0',
      'packaging',
      'protobuf!=3.19.5,>=3.15.3',
      'pyyaml',
      'requests',
      'cupy-cuda12x; sys_platform != "darwin" and extra == "cgraph"',
    ],
    2800,
  ],
  ['cupy-cuda12x', '13.5.1', ['numpy<2.6,>=1.22', 'fastrlock>=0.5'], 900],
  ['numpy', '2.2.6', [], 1100],
  ['scipy', '1.16.1', ['numpy<2.6,>=1.25.2'], 2200],
  ['numba', '0.61.2', ['llvmlite<0.45,>=0.44.0dev0', 'numpy<2.3,>=1.24'], 900],
  ['llvmlite', '0.44.0', [], 60],
  ['pillow', '11.3.0', [], 120],
  [
    'mistral-common',
    '1.8.3',
    [
      'pydantic<3.0,>=2.7',
      'jsonschema>=4.21.1',
      'typing-extensions>=4.11.0',
      'tiktoken>=0.7.0',
      'pillow>=10.3.0',
      'requests>=2.0.0',
      'numpy>=1.25',
      'pydantic-extra-types[pycountry]>=2.10.5',
      'soundfile>=0.12.1; extra == "audio"',
      'soxr>=0.5.0; extra == "audio"',
      'opencv-python-headless>=4.0.0; extra == "image"',
      'opencv-python-headless>=4.0.0; extra == "opencv"',
    ],
    120,
  ],
  ['compressed-tensors', '0.10.2', ['torch>=1.7.0', 'transformers', 'pydantic>=2.0', 'frozendict'], 90],
  [
    'xgrammar',
    '0.1.21',
    [
      'pydantic',
      'torch>=1.10.0',
      'transformers>=4.38.0',
      'ninja',
      'numpy',
      'typing-extensions>=4.9.0',
      'triton; platform_system == "Linux" and platform_machine == "x86_64"',
    ],
    80,
  ],
];

// sha256 of an empty file, as RECORD writes it (urlsafe base64, no padding).
const EMPTY_FILE_HASH = 'sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU';
const CLASSIFIERS = [
  'Development Status :: 5 - Production/Stable',
  'Intended Audience :: Developers',
  'License :: OSI Approved :: Apache Software License',
  'Operating System :: POSIX :: Linux',
  'Programming Language :: Python :: 3',
  'Programming Language :: Python :: 3.9',
  'Programming Language :: Python :: 3.10',
  'Programming Language :: Python :: 3.11',
  'Programming Language :: Python :: 3.12',
  'Topic :: Scientific/Engineering',
  'Topic :: Software Development :: Libraries',
  'Typing :: Typed',
];

const WORDS = [
  'py',
  'async',
  'json',
  'http',
  'cloud',
  'data',
  'text',
  'fast',
  'micro',
  'grpc',
  'yaml',
  'log',
  'auth',
  'cache',
  'stream',
  'tensor',
  'image',
  'audio',
  'graph',
  'sql',
  'kv',
  'schema',
  'retry',
  'metrics',
  'trace',
  'io',
  'flow',
  'crypto',
  'ml',
  'nlp',
  'geo',
  'time',
  'zip',
  'config',
  'queue',
  'socket',
  'path',
  'color',
  'mock',
  'lint',
];

export function writeEnvironment({
  count = 600,
  out = path.join('bench', 'out', `env-${count}`),
  seed = 3,
} = {}) {
  let s = seed >>> 0;
  const rnd = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const ri = (a, b) => a + Math.floor(rnd() * (b - a + 1));
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const hash = () => {
    let h = 'sha256=';
    for (let i = 0; i < 43; i++) h += B64[ri(0, 63)];
    return h;
  };
  const site = path.join(out, 'lib', 'python3.12', 'site-packages');
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(site, { recursive: true });

  // every name a requirement mentions gets a distribution, so all requirements are met
  const dists = new Map(); // normalized name → { name, version, requires, records }
  const norm = (n) => n.toLowerCase().replace(/[-_.]+/g, '-');
  for (const [name, version, requires, records] of CORE)
    dists.set(norm(name), { name, version, requires, records });
  // a required name that is not in CORE gets the highest version its lower bounds ask for (none: 1.0.0)
  const cmp = (a, b) => {
    const x = a.split('.').map(Number);
    const y = b.split('.').map(Number);
    for (let i = 0; i < Math.max(x.length, y.length); i++)
      if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  };
  // extras that some requirement asks for (`fastapi[standard]`): their requirements are installed too
  const requested = new Set();
  for (const [, , requires] of CORE)
    for (const r of requires) {
      const m = /^([A-Za-z0-9._-]+)\[([^\]]+)\]/.exec(r);
      if (m) for (const e of m[2].split(',')) requested.add(`${norm(m[1])}[${e.trim()}]`);
    }
  const wanted = new Map();
  for (const [owner, , requires] of CORE) {
    for (const r of requires) {
      const extra = /extra == "([^"]+)"/.exec(r)?.[1];
      if (extra !== undefined && !requested.has(`${norm(owner)}[${extra}]`)) continue;
      const n = norm(/^[A-Za-z0-9._-]+/.exec(r)[0]);
      if (dists.has(n)) continue;
      let v = wanted.get(n) ?? '0';
      for (const [, op, ver] of r.split(';')[0].matchAll(/(>=|==|>)\s*([0-9][0-9.]*)/g)) {
        const lower = op === '>' ? `${ver}.1` : ver;
        if (cmp(lower, v) > 0) v = lower;
      }
      wanted.set(n, v);
    }
  }
  for (const [n, v] of wanted)
    dists.set(n, { name: n, version: v === '0' ? '1.0.0' : v, requires: [], records: ri(10, 80) });
  const names = [...dists.keys()];
  while (dists.size < count) {
    const name = `${WORDS[ri(0, WORDS.length - 1)]}-${WORDS[ri(0, WORDS.length - 1)]}-${dists.size}`;
    const requires = [];
    for (let k = ri(0, 5); k > 0; k--) {
      const dep = dists.get(names[ri(0, names.length - 1)]);
      const major = dep.version.split('.')[0];
      const r = rnd();
      if (r < 0.4) requires.push(`${dep.name}>=${major}.0`);
      else if (r < 0.6) requires.push(`${dep.name}<${Number(major) + 1},>=${major}.0`);
      else if (r < 0.8) requires.push(`${dep.name}; python_version >= "3.9"`);
      else requires.push(dep.name);
    }
    if (rnd() < 0.3)
      requires.push(`pytest>=8; extra == "test"`, `${WORDS[ri(0, 39)]}-docs-theme; extra == "docs"`);
    dists.set(name, {
      name,
      version: `${ri(0, 12)}.${ri(0, 40)}.${ri(0, 20)}`,
      requires,
      records: ri(10, 80),
    });
    names.push(name);
  }

  for (const d of dists.values()) {
    const dir = path.join(site, `${d.name.replace(/-/g, '_')}-${d.version}.dist-info`);
    fs.mkdirSync(dir);
    const extras = [...new Set(d.requires.map((r) => /extra == "([^"]+)"/.exec(r)?.[1]).filter(Boolean))];
    const meta = [
      'Metadata-Version: 2.4',
      `Name: ${d.name}`,
      `Version: ${d.version}`,
      `Summary: ${d.name} for Python`,
      'License-Expression: Apache-2.0',
      'Requires-Python: >=3.9',
      // Real METADATA carries a dozen or more fields no check reads (Classifier, Project-URL, …).
      ...CLASSIFIERS.slice(0, 4 + (d.records % 9)).map((c) => `Classifier: ${c}`),
      `Project-URL: Homepage, https://example.org/${d.name}`,
      ...extras.map((e) => `Provides-Extra: ${e}`),
      ...d.requires.map((r) => `Requires-Dist: ${r}`),
      'Description-Content-Type: text/markdown',
      '',
      `# ${d.name}`,
      '',
      'A library. '.repeat(ri(20, 200)),
      '',
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'METADATA'), meta);
    fs.writeFileSync(path.join(dir, 'INSTALLER'), 'pip\n');
    fs.writeFileSync(
      path.join(dir, 'WHEEL'),
      'Wheel-Version: 1.0\nGenerator: setuptools (80.9.0)\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
    );
    const base = path.basename(dir);
    const rows = [];
    // The CUDA wheels share the `nvidia/` namespace folder, as the real ones do: the same empty
    // __init__.py (equal hashes, no clash) and each library's files in a folder of its own below it.
    const cuda = /^nvidia-(.+)-cu\d+$/.exec(d.name);
    const pkg = cuda === null ? d.name.replace(/-/g, '_') : `nvidia/${cuda[1].replace(/-/g, '_')}`;
    if (cuda !== null)
      rows.push(`nvidia/__init__.py,${EMPTY_FILE_HASH},0`, 'nvidia/__pycache__/__init__.cpython-312.pyc,,');
    for (let i = 0; i < d.records; i++) {
      const sub = i % 7 === 0 ? '' : `${WORDS[i % WORDS.length]}/`;
      rows.push(`${pkg}/${sub}m${i}.py,${hash()},${ri(200, 90000)}`);
      if (i % 3 === 0) rows.push(`${pkg}/${sub}__pycache__/m${i}.cpython-312.pyc,,`);
    }
    // One in five has a console script, which RECORD lists out of site-packages (../../../bin/NAME).
    if (d.name.length % 5 === 0) rows.push(`../../../bin/${d.name},${hash()},${ri(200, 400)}`);
    rows.push(
      `${base}/METADATA,${hash()},${meta.length}`,
      `${base}/INSTALLER,${hash()},4`,
      `${base}/WHEEL,${hash()},90`,
      `${base}/RECORD,,`,
    );
    fs.writeFileSync(path.join(dir, 'RECORD'), rows.join('\n') + '\n');
  }
  fs.mkdirSync(path.join(site, 'torch'));
  fs.writeFileSync(
    path.join(site, 'torch', 'version.py'),
    "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n__version__ = '2.7.1+cu126'\ndebug = False\ncuda: Optional[str] = '12.6'\ngit_version = 'e2d141dbde55c2a4370fac5165b0561b6af4798b'\nhip: Optional[str] = None\nxpu: Optional[str] = None\n",
  );
  fs.mkdirSync(path.join(site, 'flashinfer'));
  fs.writeFileSync(path.join(site, 'flashinfer', '_build_meta.py'), '__version__ = "0.2.11"\n');
  return { sitePackages: site, count: dists.size };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const a = process.argv.slice(2);
  const get = (flag, dflt) => (a.includes(flag) ? a[a.indexOf(flag) + 1] : dflt);
  const count = Number(get('--count', 600));
  const r = writeEnvironment({
    count,
    out: get('--out', path.join('bench', 'out', `env-${count}`)),
    seed: Number(get('--seed', 3)),
  });
  console.log(`${r.sitePackages}: ${r.count} distributions`);
}
