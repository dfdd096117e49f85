/** The value of the first of `names` among a server's flags (`--port 8000` or `--port=8000`). */
export function serverFlag(args: readonly string[], ...names: string[]): string | undefined {
  for (const [index, arg] of args.entries()) {
    for (const name of names) {
      if (arg === name) return args[index + 1];
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
    }
  }
  return undefined;
}

/** The model a server command loads: the engines' model flags, or `vllm serve MODEL`'s operand. */
export function modelOfServerArgs(args: readonly string[]): string | undefined {
  const serveIndex = args.indexOf('serve');
  const operand = serveIndex === -1 ? undefined : args[serveIndex + 1];
  return (
    serverFlag(args, '--model', '--model-path', '--model-id', '-m') ??
    (operand === undefined || operand.startsWith('-') ? undefined : operand)
  );
}
