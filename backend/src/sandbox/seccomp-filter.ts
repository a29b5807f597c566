/**
 * A seccomp program for bubblewrap (`--seccomp FD`: a compiled classic-BPF filter, the form
 * libseccomp's seccomp_export_bpf writes) that refuses `fallocate(2)` with EOPNOTSUPP. Allocating
 * disk blocks without writing would pass the per-call write budget (which counts bytes written);
 * refused, `posix_fallocate` in the C library falls back to writing the zeros, which are counted,
 * and the `fallocate` command fails. Everything else is allowed: the sandbox's namespaces confine.
 */

// struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EOPNOTSUPP = 95;
/** Offsets in struct seccomp_data. */
const NR = 0;
const ARCH = 4;

/** fallocate's syscall numbers per architecture (x86-64 also under its x32 ABI). */
const FALLOCATE: Array<{ arch: number; numbers: number[] }> = [
  { arch: 0xc000003e, numbers: [285, 0x40000000 | 285] }, // x86_64
  { arch: 0x40000003, numbers: [324] }, // i386
  { arch: 0xc00000b7, numbers: [47] }, // aarch64
  { arch: 0x40000028, numbers: [352] }, // arm
];

interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

export function fallocateFilter(): Buffer {
  const program: Instruction[] = [];
  const at = (code: number, k: number, jt = 0, jf = 0) => program.push({ code, jt, jf, k });
  // Per architecture: if it is this one, jump to its block; blocks follow the dispatch, then ALLOW, DENY.
  at(LD_W_ABS, ARCH);
  const dispatch = program.length;
  for (const _ of FALLOCATE) at(JEQ_K, 0);
  at(RET_K, SECCOMP_RET_ALLOW); // an architecture we do not know: nothing to match
  const blocks: number[] = [];
  for (const { numbers } of FALLOCATE) {
    blocks.push(program.length);
    at(LD_W_ABS, NR);
    for (const _ of numbers) at(JEQ_K, 0);
    at(RET_K, SECCOMP_RET_ALLOW);
  }
  const deny = program.length;
  at(RET_K, SECCOMP_RET_ERRNO | EOPNOTSUPP);
  // Fill in the jumps (relative to the next instruction).
  FALLOCATE.forEach(({ arch, numbers }, i) => {
    const jump = program[dispatch + i];
    jump.k = arch;
    jump.jt = blocks[i] - (dispatch + i + 1);
    numbers.forEach((nr, j) => {
      const index = blocks[i] + 1 + j;
      program[index].k = nr;
      program[index].jt = deny - (index + 1);
    });
  });
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(({ code, jt, jf, k }, i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return bytes;
}
