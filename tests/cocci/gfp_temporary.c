/* Call sites shaped like those the GFP_TEMPORARY removal changed. */
static int show_info(void)
{
	char *str;
	struct submit *submit;
	void **pages;
	unsigned long *order;

	str = (char *)__get_free_page(GFP_TEMPORARY);
	if (!str)
		return -ENOMEM;
	submit = kmalloc(sz, GFP_TEMPORARY | __GFP_NOWARN | __GFP_NORETRY);
	pages = drm_malloc_gfp(n_pages, sizeof(*pages), GFP_TEMPORARY);
	order = kmalloc_array(count, sizeof(*order),
			      GFP_TEMPORARY);
	if (!alloc_cpumask_var(&offline_mask, GFP_TEMPORARY))
		return -ENOMEM;
	return 0;
}
