import pc from 'picocolors';

export type Paint = Record<'red' | 'green' | 'yellow' | 'bold' | 'dim', (text: string) => string>;

/** Colours when asked, plain text otherwise; the caller decides (TTY, NO_COLOR). */
export function createPaint(color: boolean): Paint {
  const c = pc.createColors(color);
  return { red: c.red, green: c.green, yellow: c.yellow, bold: c.bold, dim: c.dim };
}
