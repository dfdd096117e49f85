;; block-sieve.wat — the byte loops of block-sieve.ts, with 128-bit SIMD (compiled by scripts/build-wasm.mjs
;; into block-sieve-wasm.ts; `npm run build:wasm` after editing).
;;
;; The memory is the caller's and may be shared between threads (the session and its helper search blocks
;; that lie in one shared memory, where they were read, with no copy). Each instance has a region of its
;; own at `base` (the caller writes the tables, reads the results):
;;   base+0..95     six 16-byte nibble tables: for bytes 0, 1 and 2 of a literal, the buckets (bits) a byte's
;;                  low and high nibble allow (Teddy, as in Hyperscan and Rust's aho-corasick: a lane is a
;;                  candidate when its byte and the two after it each allow a common bucket);
;;   base+96..99    a bound on the longest line `count_lines` saw (see there);
;;   base+100..103  where `find_candidates` stopped (past `to`, or at the first lanes that no longer fit `out`);
;;   base+104..107  the newlines `find_candidates` passed, from `from` to where it stopped;
;;   base+108..111  the most vectors in a row it found no newline in (a bound on its longest line: see there);
;;   base+112..115  the run of such vectors it ended with (the next call's `dry`).
;; Blocks and candidates lie where the caller says; up to 17 bytes past a block's end are read, which must
;; hold no newline and begin no literal (zeros).
(module
  (import "env" "memory" (memory 1 65536 shared))
  (import "env" "base" (global $base i32))

  ;; Writes to `out` (two u32 each, at most `max`) the positions in [from, to) where a literal's first
  ;; three bytes may begin, each with the newlines between `from` and it; returns how many. Lanes past `to`
  ;; are reported too: the caller checks each one. The newlines are counted in the same pass, so a caller
  ;; that wants the lines between its hits need not read the block again.
  ;; `dry` is the run of vectors with no newline that ended where this call begins (0 at a line's start).
  ;; Two vectors are read a step (one test of both for candidates: 12 % faster than one a step); the
  ;; search of each is written out twice, since V8 does not inline a call here (a function for it: 2x slower).
  (func (export "find_candidates") (param $from i32) (param $to i32) (param $out i32) (param $max i32)
    (param $dry i32) (result i32)
    (local $p i32) (local $n i32) (local $bits i32) (local $v v128) (local $m v128) (local $m2 v128)
    (local $nibble v128) (local $lo0 v128) (local $hi0 v128) (local $lo1 v128) (local $hi1 v128)
    (local $lo2 v128) (local $hi2 v128) (local $newline v128) (local $lines i32) (local $newlines i32)
    (local $newlines2 i32) (local $driest i32) (local $lane i32)
    (local.set $lo0 (v128.load offset=0 (global.get $base)))
    (local.set $hi0 (v128.load offset=16 (global.get $base)))
    (local.set $lo1 (v128.load offset=32 (global.get $base)))
    (local.set $hi1 (v128.load offset=48 (global.get $base)))
    (local.set $lo2 (v128.load offset=64 (global.get $base)))
    (local.set $hi2 (v128.load offset=80 (global.get $base)))
    (local.set $nibble (i8x16.splat (i32.const 15)))
    (local.set $newline (i8x16.splat (i32.const 10)))
    (local.set $p (local.get $from))
    (block $done
      ;; Two vectors a step while both begin before `to`.
      (block $pairs
        (loop $pair
          (br_if $pairs (i32.ge_u (i32.add (local.get $p) (i32.const 16)) (local.get $to)))
          (local.set $newlines (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $newline))))
          (local.set $newlines2
            (i8x16.bitmask (i8x16.eq (v128.load offset=16 (local.get $p)) (local.get $newline))))
          (local.set $v (v128.load offset=0 (local.get $p)))
          (local.set $m (v128.and
            (i8x16.swizzle (local.get $lo0) (v128.and (local.get $v) (local.get $nibble)))
            (i8x16.swizzle (local.get $hi0) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))))
          (local.set $v (v128.load offset=1 (local.get $p)))
          (local.set $m (v128.and (local.get $m) (v128.and
            (i8x16.swizzle (local.get $lo1) (v128.and (local.get $v) (local.get $nibble)))
            (i8x16.swizzle (local.get $hi1) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble))))))
          (local.set $v (v128.load offset=2 (local.get $p)))
          (local.set $m (v128.and (local.get $m) (v128.and
            (i8x16.swizzle (local.get $lo2) (v128.and (local.get $v) (local.get $nibble)))
            (i8x16.swizzle (local.get $hi2) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble))))))
          (local.set $v (v128.load offset=16 (local.get $p)))
          (local.set $m2 (v128.and
            (i8x16.swizzle (local.get $lo0) (v128.and (local.get $v) (local.get $nibble)))
            (i8x16.swizzle (local.get $hi0) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))))
          (local.set $v (v128.load offset=17 (local.get $p)))
          (local.set $m2 (v128.and (local.get $m2) (v128.and
            (i8x16.swizzle (local.get $lo1) (v128.and (local.get $v) (local.get $nibble)))
            (i8x16.swizzle (local.get $hi1) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble))))))
          (local.set $v (v128.load offset=18 (local.get $p)))
          (local.set $m2 (v128.and (local.get $m2) (v128.and
            (i8x16.swizzle (local.get $lo2) (v128.and (local.get $v) (local.get $nibble)))
            (i8x16.swizzle (local.get $hi2) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble))))))
          (if (v128.any_true (v128.or (local.get $m) (local.get $m2)))
            (then
              ;; A full `out` ends the call: the caller goes on after the last candidate written.
              (br_if $done (i32.gt_u (i32.add (local.get $n) (i32.const 32)) (local.get $max)))
              (local.set $bits (i8x16.bitmask (i8x16.ne (local.get $m) (v128.const i32x4 0 0 0 0))))
              (block $none
                (br_if $none (i32.eqz (local.get $bits)))
                (loop $each
                  (local.set $lane (i32.ctz (local.get $bits)))
                  (i32.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3)))
                    (i32.add (local.get $p) (local.get $lane)))
                  ;; The lines before the candidate: those of the vectors before, and this vector's lanes below it.
                  (i32.store offset=4 (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3)))
                    (i32.add (local.get $lines) (i32.popcnt (i32.and (local.get $newlines)
                      (i32.sub (i32.shl (i32.const 1) (local.get $lane)) (i32.const 1))))))
                  (local.set $n (i32.add (local.get $n) (i32.const 1)))
                  (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
                  (br_if $each (local.get $bits))))
              (local.set $bits (i8x16.bitmask (i8x16.ne (local.get $m2) (v128.const i32x4 0 0 0 0))))
              (block $none
                (br_if $none (i32.eqz (local.get $bits)))
                (loop $each
                  (local.set $lane (i32.ctz (local.get $bits)))
                  (i32.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3)))
                    (i32.add (i32.add (local.get $p) (i32.const 16)) (local.get $lane)))
                  ;; The lines before the candidate: those of the vectors before, and this vector's lanes below it.
                  (i32.store offset=4 (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3)))
                    (i32.add (i32.add (local.get $lines) (i32.popcnt (local.get $newlines))) (i32.popcnt (i32.and (local.get $newlines2)
                      (i32.sub (i32.shl (i32.const 1) (local.get $lane)) (i32.const 1))))))
                  (local.set $n (i32.add (local.get $n) (i32.const 1)))
                  (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
                  (br_if $each (local.get $bits))))
))
          (local.set $lines (i32.add (local.get $lines)
            (i32.add (i32.popcnt (local.get $newlines)) (i32.popcnt (local.get $newlines2)))))
          ;; A line longer than 16 (k + 1) bytes spans k vectors with no newline: the longest run of such
          ;; vectors bounds the longest line (at most 16 (run + 2) bytes without its newline).
          (local.set $dry (select (i32.const 0) (i32.add (local.get $dry) (i32.const 1)) (local.get $newlines)))
          (local.set $driest (select (local.get $dry) (local.get $driest)
            (i32.gt_u (local.get $dry) (local.get $driest))))
          (local.set $dry (select (i32.const 0) (i32.add (local.get $dry) (i32.const 1)) (local.get $newlines2)))
          (local.set $driest (select (local.get $dry) (local.get $driest)
            (i32.gt_u (local.get $dry) (local.get $driest))))
          (local.set $p (i32.add (local.get $p) (i32.const 32)))
          (br $pair)))
      ;; The last vector alone, when one begins before `to`.
      (br_if $done (i32.ge_u (local.get $p) (local.get $to)))
      (local.set $newlines (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $newline))))
      (local.set $v (v128.load offset=0 (local.get $p)))
      (local.set $m (v128.and
        (i8x16.swizzle (local.get $lo0) (v128.and (local.get $v) (local.get $nibble)))
        (i8x16.swizzle (local.get $hi0) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))))
      (local.set $v (v128.load offset=1 (local.get $p)))
      (local.set $m (v128.and (local.get $m) (v128.and
        (i8x16.swizzle (local.get $lo1) (v128.and (local.get $v) (local.get $nibble)))
        (i8x16.swizzle (local.get $hi1) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble))))))
      (local.set $v (v128.load offset=2 (local.get $p)))
      (local.set $m (v128.and (local.get $m) (v128.and
        (i8x16.swizzle (local.get $lo2) (v128.and (local.get $v) (local.get $nibble)))
        (i8x16.swizzle (local.get $hi2) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble))))))
      (if (v128.any_true (local.get $m))
        (then
          (br_if $done (i32.gt_u (i32.add (local.get $n) (i32.const 16)) (local.get $max)))
          (local.set $bits (i8x16.bitmask (i8x16.ne (local.get $m) (v128.const i32x4 0 0 0 0))))
          (block $none
            (br_if $none (i32.eqz (local.get $bits)))
            (loop $each
              (local.set $lane (i32.ctz (local.get $bits)))
              (i32.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3)))
                (i32.add (local.get $p) (local.get $lane)))
              ;; The lines before the candidate: those of the vectors before, and this vector's lanes below it.
              (i32.store offset=4 (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3)))
                (i32.add (local.get $lines) (i32.popcnt (i32.and (local.get $newlines)
                  (i32.sub (i32.shl (i32.const 1) (local.get $lane)) (i32.const 1))))))
              (local.set $n (i32.add (local.get $n) (i32.const 1)))
              (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
              (br_if $each (local.get $bits))))
))
      (local.set $lines (i32.add (local.get $lines) (i32.popcnt (local.get $newlines))))
      (local.set $dry (select (i32.const 0) (i32.add (local.get $dry) (i32.const 1)) (local.get $newlines)))
      (local.set $driest (select (local.get $dry) (local.get $driest)
        (i32.gt_u (local.get $dry) (local.get $driest))))
      (local.set $p (i32.add (local.get $p) (i32.const 16))))
    (i32.store offset=100 (global.get $base) (local.get $p))
    (i32.store offset=104 (global.get $base) (local.get $lines))
    (i32.store offset=108 (global.get $base) (local.get $driest))
    (i32.store offset=112 (global.get $base) (local.get $dry))
    (local.get $n))

  ;; The newlines in [from, to), which must end at a line's start. base+96 gets a bound on its longest
  ;; line (bytes before the newline), at least the longest and at most 16 more: each vector's first
  ;; newline ends the one line that may have begun before the vector, and a vector with none counts as
  ;; if its line ended a vector later.
  (func (export "count_lines") (param $from i32) (param $to i32) (result i32)
    (local $p i32) (local $end i32) (local $count i32) (local $start i32) (local $longest i32)
    (local $bits i32) (local $length i32) (local $newline v128)
    (local.set $newline (i8x16.splat (i32.const 10)))
    (local.set $p (local.get $from))
    (local.set $start (local.get $from))
    (local.set $longest (i32.const 16))
    ;; Whole vectors with no branch on what they hold; then the last, partial one.
    (local.set $end (i32.sub (local.get $to) (i32.const 16)))
    (block $whole
      (loop $next
        (br_if $whole (i32.gt_s (local.get $p) (local.get $end)))
        (local.set $bits (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $newline))))
        (local.set $count (i32.add (local.get $count) (i32.popcnt (local.get $bits))))
        (local.set $length (i32.sub (i32.add (local.get $p) (i32.ctz (local.get $bits))) (local.get $start)))
        (local.set $longest (select (local.get $length) (local.get $longest)
          (i32.gt_u (local.get $length) (local.get $longest))))
        (local.set $start (select
          (i32.sub (i32.add (local.get $p) (i32.const 32)) (i32.clz (local.get $bits)))
          (local.get $start)
          (local.get $bits)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $next)))
    (if (i32.lt_u (local.get $p) (local.get $to))
      (then
        (local.set $bits (i32.and
          (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $newline)))
          (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $to) (local.get $p))) (i32.const 1))))
        (local.set $count (i32.add (local.get $count) (i32.popcnt (local.get $bits))))
        (local.set $length (i32.sub (i32.add (local.get $p) (i32.ctz (local.get $bits))) (local.get $start)))
        (local.set $longest (select (local.get $length) (local.get $longest)
          (i32.gt_u (local.get $length) (local.get $longest))))))
    (i32.store offset=96 (global.get $base) (local.get $longest))
    (local.get $count))
)
