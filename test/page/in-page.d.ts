// Signatures of in-page.js, whose functions run inside the browser page.
export function collectViolations(): void;
export function findPwned(): unknown;
export function countColours(data: string): Promise<{ distinct: number; inkShare: number }>;
export function measureContrast(): string[];
