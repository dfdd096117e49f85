/**
 * glibc's heap and stack checks, which abort the process when they find its memory damaged (`double free
 * or corruption (!prev)`, `free(): invalid pointer`, `*** stack smashing detected ***`): one list for the
 * grammar that reads them, the signature that explains them, the classifier that calls them a program's bug
 * and the shutdown that they may end.
 */
export const HEAP_CHECKS = String.raw`double free or corruption \((?:!prev|out|top|fasttop)\)|free\(\): (?:invalid (?:pointer|size|next size \(\w+\))|double free detected in tcache 2)|corrupted (?:size vs\. prev_size|double-linked list(?: \(not small\))?|top size)|malloc\(\): [\w ]*(?:corrupted|corruption|invalid size \(unsorted\)|unaligned tcache chunk detected)|munmap_chunk\(\): invalid pointer|realloc\(\): invalid (?:pointer|next size|old size)`;

/** The stack protector's and FORTIFY_SOURCE's words, between `***` marks. */
export const STACK_CHECKS = String.raw`(?:stack smashing|buffer overflow) detected`;
