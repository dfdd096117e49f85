const ARTIFACT = /^(?:Copy|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)$/;

/**
 * A log copied from CloudWatch's console repeats each event after a "Copy" button and a bare timestamp,
 * with blank lines between: those lines and the repeats are not the server's.
 */
export class ConsoleCopyFilter {
  private afterArtifact = false;
  private seenCopy = false;
  private lastLine = '';
  /** A console's artifact was seen: every line must pass through here from now on. */
  engaged = false;

  /** Whether this line is the console's, not the log's. */
  skips(line: string): boolean {
    const blank = line.trim() === '';
    if (ARTIFACT.test(line) || (this.seenCopy && blank)) {
      this.seenCopy ||= line === 'Copy';
      this.afterArtifact = true;
      this.engaged = true;
      return true;
    }
    const repeat = this.afterArtifact && line.trim() === this.lastLine.trim();
    this.afterArtifact = false;
    if (!blank) this.lastLine = line;
    return repeat;
  }
}
