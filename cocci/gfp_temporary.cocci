// GFP_TEMPORARY was removed in Linux 4.14: it meant GFP_KERNEL plus
// __GFP_RECLAIMABLE, and no caller could actually reclaim what it got.
// Every use becomes GFP_KERNEL, as the treewide removal did by hand.
//
// Usage: spatch --sp-file cocci/gfp_temporary.cocci --in-place --dir DIR
//
// Confidence: High (a plain flag substitution)

virtual patch

@depends on patch@
@@
- GFP_TEMPORARY
+ GFP_KERNEL
