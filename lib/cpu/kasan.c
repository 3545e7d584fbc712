// SPDX-License-Identifier: MIT
/*
 * kasan.c - the entry points of Clang's kernel-address-sanitizer
 * instrumentation, in call mode.  (GCC's checks an address once per basic
 * block, so the store of a read-modify-write is lost; driver code built
 * with GCC reaches the model through tsan.c instead.)
 *
 * How it works.  Built with -fsanitize=kernel-address and the call
 * threshold at 0 (see docs/instrumentation.md for the exact flags),
 * driver code calls __asan_loadN_noabort(addr) before every
 * N-byte load and __asan_storeN_noabort(addr) before every store; an
 * access of another size calls the ...N_noabort(addr, size) variant.  A
 * kernel provides these functions (KASAN); libdmaemu provides them instead,
 * so an instrumented program links with no sanitizer runtime, and every
 * access of driver code runs dmaemu__cpu_hook() first: a range check, then
 * the model (cpu.c).
 *
 * The variants without _noabort are what -fno-sanitize-recover emits with
 * GCC; they behave the same here (a report never aborts unless
 * halt_on_error says so).  The remaining functions are emitted only with
 * flags other than ours (globals, stack and alloca instrumentation) or by
 * returns that skip the epilogue; dmaemu keeps no shadow memory, so they
 * have nothing to do, and exist so that such objects still link.
 */
#include "config.h"

#include "cpu/cpu.h"

/*
 * A sanitizer build (--enable-sanitizer, DMAEMU_SANITIZER) has no hooks:
 * with -fsanitize=address these names are the ASan runtime's own entry
 * points (libdmaemu.so would export a second __asan_register_globals,
 * __asan_load4..., and the dynamic linker would pick one of the two), and
 * under address and thread alike GCC predeclares them as builtins of
 * another type.  Nothing could call them anyway: the compilers refuse
 * -fsanitize=kernel-address together with -fsanitize=address or thread,
 * so no instrumented driver code is built in such a build (dmaemu-cc
 * refuses, the instrumented suites skip).
 */
#ifndef DMAEMU_SANITIZER

/* The instrumentation ABI (declared here: no header of the compilers'). */
#define DECLARE_SIZED(n)                                    \
	void __asan_load##n##_noabort(unsigned long addr);  \
	void __asan_store##n##_noabort(unsigned long addr); \
	void __asan_load##n(unsigned long addr);            \
	void __asan_store##n(unsigned long addr)
DECLARE_SIZED(1);
DECLARE_SIZED(2);
DECLARE_SIZED(4);
DECLARE_SIZED(8);
DECLARE_SIZED(16);
void __asan_loadN_noabort(unsigned long addr, size_t size);
void __asan_storeN_noabort(unsigned long addr, size_t size);
void __asan_loadN(unsigned long addr, size_t size);
void __asan_storeN(unsigned long addr, size_t size);
void __asan_handle_no_return(void);
void __asan_register_globals(void *globals, size_t n);
void __asan_unregister_globals(void *globals, size_t n);
void __asan_alloca_poison(unsigned long addr, size_t size);
void __asan_allocas_unpoison(void *stack_top, void *stack_bottom);

/*
 * Each hook starts a 64-byte block: its host-memory path is a handful of
 * instructions run for every access of driver code, and where it falls
 * against 32- and 64-byte boundaries (the decoded-uop cache's lines) moved
 * with unrelated changes elsewhere in the library by up to half its cost.
 */
#define HOOK __attribute__((aligned(64)))
/* The access site of a range: the driver's line (cpu.h). */
#define SITE __builtin_return_address(0)
#define DEFINE_SIZED(n)                                         \
	HOOK void __asan_load##n##_noabort(unsigned long addr)  \
	{                                                       \
		dmaemu__cpu_hook(addr, n, false);               \
	}                                                       \
	HOOK void __asan_store##n##_noabort(unsigned long addr) \
	{                                                       \
		dmaemu__cpu_hook(addr, n, true);                \
	}                                                       \
	HOOK void __asan_load##n(unsigned long addr)            \
	{                                                       \
		dmaemu__cpu_hook(addr, n, false);               \
	}                                                       \
	HOOK void __asan_store##n(unsigned long addr)           \
	{                                                       \
		dmaemu__cpu_hook(addr, n, true);                \
	}

DEFINE_SIZED(1)
DEFINE_SIZED(2)
DEFINE_SIZED(4)
DEFINE_SIZED(8)
DEFINE_SIZED(16)

/*
 * Odd sizes, and whole inlined copies (GCC checks an inlined struct copy
 * or small memcpy as one N-byte load and one N-byte store).
 */
void __asan_loadN_noabort(unsigned long addr, size_t size)
{
	dmaemu__cpu_range_at((const void *)addr, size, false, SITE);
}

void __asan_storeN_noabort(unsigned long addr, size_t size)
{
	dmaemu__cpu_range_at((const void *)addr, size, true, SITE);
}

void __asan_loadN(unsigned long addr, size_t size)
{
	dmaemu__cpu_range_at((const void *)addr, size, false, SITE);
}

void __asan_storeN(unsigned long addr, size_t size)
{
	dmaemu__cpu_range_at((const void *)addr, size, true, SITE);
}

/* KASAN unpoisons the stack here; there is no shadow to unpoison. */
void __asan_handle_no_return(void)
{
}

void __asan_register_globals(void *globals, size_t n)
{
	(void)globals;
	(void)n;
}

void __asan_unregister_globals(void *globals, size_t n)
{
	(void)globals;
	(void)n;
}

void __asan_alloca_poison(unsigned long addr, size_t size)
{
	(void)addr;
	(void)size;
}

void __asan_allocas_unpoison(void *stack_top, void *stack_bottom)
{
	(void)stack_top;
	(void)stack_bottom;
}

#endif /* !DMAEMU_SANITIZER */
