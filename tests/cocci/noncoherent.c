/* A driver still on the API removed in Linux 4.14. */
static int ring_init(struct ring *r, struct device *dev)
{
	r->desc = dma_alloc_noncoherent(dev, RING_BYTES, &r->desc_dma,
					GFP_KERNEL);
	if (!r->desc)
		return -ENOMEM;
	r->bounce = dma_alloc_noncoherent(r->dev, PAGE_SIZE, &r->bounce_dma, GFP_ATOMIC | __GFP_ZERO);
	return 0;
}

static void ring_fini(struct ring *r, struct device *dev)
{
	dma_free_noncoherent(dev, RING_BYTES, r->desc, r->desc_dma);
	dma_free_noncoherent(r->dev, PAGE_SIZE, r->bounce, r->bounce_dma);
}
