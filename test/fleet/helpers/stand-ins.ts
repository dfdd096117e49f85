import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir, writeFakeCommand } from '../../sources/helpers/fake-command.js';

/**
 * A kubectl stand-in: no cluster runs here, so it replays what a real kubectl printed for the fixture
 * (pods.json, events/POD.json, logs/POD[.previous].log) and records each call's arguments.
 */
const KUBECTL = `
echo "$*" >> "$FLEET_CALLS"
case "$1" in
  get)
    case "$2" in
      pods) cat "$FLEET_DIR/pods.json" ;;
      events)
        for a in "$@"; do case "$a" in --field-selector=involvedObject.name=*) pod="\${a#--field-selector=involvedObject.name=}" ;; esac; done
        if [ -f "$FLEET_DIR/events/$pod.json" ]; then cat "$FLEET_DIR/events/$pod.json"
        else echo '{"apiVersion": "v1", "items": [], "kind": "List", "metadata": {"resourceVersion": ""}}'; fi ;;
      *) echo "error: the server doesn't have a resource type \\"$2\\"" >&2; exit 1 ;;
    esac ;;
  logs)
    pod="$2"; prev=
    for a in "$@"; do [ "$a" = --previous ] && prev=.previous; done
    f="$FLEET_DIR/logs/$pod$prev.log"
    if [ -f "$f" ]; then cat "$f"
    else echo "Error from server (BadRequest): previous terminated container \\"vllm\\" in pod \\"$pod\\" not found" >&2; exit 1; fi ;;
  *) echo "error: unknown command \\"$1\\" for \\"kubectl\\"" >&2; exit 1 ;;
esac
`;

export interface StandIn {
  env: Record<string, string>;
  calls(): Promise<string[]>;
}

export async function standInKubectl(fixture: string): Promise<StandIn> {
  const dir = await tempDir();
  await writeFakeCommand(dir, 'kubectl', KUBECTL);
  const calls = join(dir, 'calls.log');
  return {
    env: {
      PATH: `${dir}:/usr/bin:/bin`,
      FLEET_DIR: join(process.cwd(), 'test/fixtures/fleet', fixture),
      FLEET_CALLS: calls,
      XDG_STATE_HOME: join(dir, 'state'),
      XDG_CONFIG_HOME: join(dir, 'config'),
    },
    calls: async () =>
      (await readFile(calls, 'utf8').catch(() => '')).split('\n').filter((line) => line !== ''),
  };
}

/** A docker stand-in: no daemon runs here; it replays `docker ps`, `docker inspect` and `docker logs`. */
const DOCKER = `
echo "$*" >> "$FLEET_CALLS"
case "$1" in
  ps) cat "$FLEET_DIR/ps.txt" ;;
  inspect) for a in "$@"; do name="$a"; done
    if [ -f "$FLEET_DIR/inspect/$name.json" ]; then cat "$FLEET_DIR/inspect/$name.json"
    else echo '[]'; echo "Error: No such container: $name" >&2; exit 1; fi ;;
  logs) for a in "$@"; do name="$a"; done
    if [ -f "$FLEET_DIR/logs/$name.log" ]; then cat "$FLEET_DIR/logs/$name.log"
    else echo "Error response from daemon: No such container: $name" >&2; exit 1; fi ;;
  *) echo "docker: '$1' is not a docker command." >&2; exit 1 ;;
esac
`;

export async function standInDocker(fixture: string): Promise<StandIn> {
  const standIn = await standInKubectl(fixture);
  await writeFakeCommand(standIn.env.PATH?.split(':')[0] ?? '', 'docker', DOCKER);
  return standIn;
}
