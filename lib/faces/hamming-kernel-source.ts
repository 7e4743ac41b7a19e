import { SEARCH_CODE_BYTES } from "./search-code";

/**
 * The source of the Hamming scan's WebAssembly kernel (lib/faces/hamming-scan.ts
 * documents what it does and its memory layout), in the WebAssembly text
 * format. It is assembled once, by `npm run -s kernel:build`, into
 * ./hamming-kernel-binary.ts, which is what the server loads;
 * tests/unit/hamming-kernel.test.ts assembles it again with wabt and fails
 * if the shipped binary differs.
 */
export const KERNEL_WAT = `
(module
  (memory (export "memory") 1)
  (func (export "scan") (param $probe i32) (param $codes i32) (param $count i32) (param $out i32)
    (local $i i32) (local $at i32) (local $sum v128)
    (local $p0 v128) (local $p1 v128) (local $p2 v128) (local $p3 v128)
    (local $p4 v128) (local $p5 v128) (local $p6 v128) (local $p7 v128)
    (local.set $p0 (v128.load offset=0 (local.get $probe)))
    (local.set $p1 (v128.load offset=16 (local.get $probe)))
    (local.set $p2 (v128.load offset=32 (local.get $probe)))
    (local.set $p3 (v128.load offset=48 (local.get $probe)))
    (local.set $p4 (v128.load offset=64 (local.get $probe)))
    (local.set $p5 (v128.load offset=80 (local.get $probe)))
    (local.set $p6 (v128.load offset=96 (local.get $probe)))
    (local.set $p7 (v128.load offset=112 (local.get $probe)))
    (local.set $at (local.get $codes))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
      ;; per byte lane: popcount of probe XOR code, summed over the 8 slices (at most 64, fits a byte)
      (local.set $sum (i8x16.add
        (i8x16.add
          (i8x16.add (i8x16.popcnt (v128.xor (local.get $p0) (v128.load offset=0 (local.get $at))))
                     (i8x16.popcnt (v128.xor (local.get $p1) (v128.load offset=16 (local.get $at)))))
          (i8x16.add (i8x16.popcnt (v128.xor (local.get $p2) (v128.load offset=32 (local.get $at))))
                     (i8x16.popcnt (v128.xor (local.get $p3) (v128.load offset=48 (local.get $at))))))
        (i8x16.add
          (i8x16.add (i8x16.popcnt (v128.xor (local.get $p4) (v128.load offset=64 (local.get $at))))
                     (i8x16.popcnt (v128.xor (local.get $p5) (v128.load offset=80 (local.get $at)))))
          (i8x16.add (i8x16.popcnt (v128.xor (local.get $p6) (v128.load offset=96 (local.get $at))))
                     (i8x16.popcnt (v128.xor (local.get $p7) (v128.load offset=112 (local.get $at))))))))
      ;; widen and add the 16 lanes
      (local.set $sum (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $sum))))
      (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1)))
        (i32.add (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
                 (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum)))))
      (local.set $at (i32.add (local.get $at) (i32.const ${SEARCH_CODE_BYTES})))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next))))
  (func (export "estimate") (param $block i32) (param $slots i32) (param $count i32) (param $table i32) (param $out i32)
    (local $n i32) (local $code i32) (local $row i32) (local $j i32)
    (local $s0 f64) (local $s1 f64) (local $s2 f64) (local $s3 f64)
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $n) (local.get $count)))
      (local.set $code (i32.add (local.get $block)
        (i32.mul (i32.load (i32.add (local.get $slots) (i32.shl (local.get $n) (i32.const 2)))) (i32.const ${SEARCH_CODE_BYTES}))))
      (local.set $s0 (f64.const 0)) (local.set $s1 (f64.const 0)) (local.set $s2 (f64.const 0)) (local.set $s3 (f64.const 0))
      (local.set $row (local.get $table))
      (local.set $j (i32.const 0))
      ;; byte j of the code picks entry (j, byte) of the table: 256 f32 a row
      (loop $bytes
        (local.set $s0 (f64.add (local.get $s0) (f64.promote_f32 (f32.load
          (i32.add (local.get $row) (i32.shl (i32.load8_u offset=0 (i32.add (local.get $code) (local.get $j))) (i32.const 2)))))))
        (local.set $s1 (f64.add (local.get $s1) (f64.promote_f32 (f32.load offset=1024
          (i32.add (local.get $row) (i32.shl (i32.load8_u offset=1 (i32.add (local.get $code) (local.get $j))) (i32.const 2)))))))
        (local.set $s2 (f64.add (local.get $s2) (f64.promote_f32 (f32.load offset=2048
          (i32.add (local.get $row) (i32.shl (i32.load8_u offset=2 (i32.add (local.get $code) (local.get $j))) (i32.const 2)))))))
        (local.set $s3 (f64.add (local.get $s3) (f64.promote_f32 (f32.load offset=3072
          (i32.add (local.get $row) (i32.shl (i32.load8_u offset=3 (i32.add (local.get $code) (local.get $j))) (i32.const 2)))))))
        (local.set $row (i32.add (local.get $row) (i32.const 4096)))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br_if $bytes (i32.lt_u (local.get $j) (i32.const ${SEARCH_CODE_BYTES}))))
      (f64.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3)))
        (f64.add (f64.add (local.get $s0) (local.get $s1)) (f64.add (local.get $s2) (local.get $s3))))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br $next))))
)
`;
