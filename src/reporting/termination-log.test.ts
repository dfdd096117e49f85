import { describe, expect, it } from 'vitest';
import { renderTerminationLog, TERMINATION_LOG_LIMIT } from './termination-log.js';

describe('renderTerminationLog', () => {
  it('writes the id, the message and the fix on their own lines', () => {
    expect(
      renderTerminationLog({ id: 'kernel-missing', message: 'no sm_120 in _C.so', fix: 'pip install x' }),
    ).toBe('kernel-missing: no sm_120 in _C.so\nfix: pip install x\n');
  });

  it('leaves the fix out when there is none', () => {
    expect(renderTerminationLog({ id: 'a', message: 'b' })).toBe('a: b\n');
    expect(renderTerminationLog({ id: 'a', message: 'b', fix: ' ' })).toBe('a: b\n');
  });

  it.each([
    ['ASCII', 'x'],
    ['two-byte', 'é'],
    ['three-byte', '€'],
    ['four-byte (surrogate pairs)', '😀'],
  ])('cuts a long %s message to 4096 bytes on a character boundary', (_name, char) => {
    const text = renderTerminationLog({ id: 'memory-fit', message: char.repeat(5000), fix: 'less' });
    const bytes = Buffer.from(text, 'utf8');
    expect(bytes.length).toBeLessThanOrEqual(TERMINATION_LOG_LIMIT);
    expect(bytes.length).toBeGreaterThan(TERMINATION_LOG_LIMIT - 4);
    expect(bytes.toString('utf8')).toBe(text);
    expect(text).not.toContain('\uFFFD');
    expect(text.startsWith('memory-fit: ')).toBe(true);
  });
});
