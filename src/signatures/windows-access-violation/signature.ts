import { defineWindowsCrash } from '../windows-crash.js';

export default defineWindowsCrash({
  id: 'windows-access-violation',
  status: 0xc0000005,
  title: 'a native crash on Windows: access violation (0xC0000005)',
  explanation:
    "Exit status 0xC0000005 is STATUS_ACCESS_VIOLATION, the Windows form of a segmentation fault: native code (the runner, a GPU backend's DLL, the driver) read or wrote memory it does not own. The usual causes: a GPU driver that does not fit the build, a model this version of the runner mishandles, or an allocation that failed unchecked when memory ran out.",
});
