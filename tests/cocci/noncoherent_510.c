/* A driver on the NON_CONSISTENT API that Linux 5.10 removed. */
static int ring_init(struct ring *r, struct device *dev)
{
	r->desc = dma_alloc_attrs(dev, RING_BYTES, &r->desc_dma, GFP_KERNEL,
				  DMA_ATTR_NON_CONSISTENT);
	if (!r->desc)
		return -ENOMEM;
	r->rx = dma_alloc_attrs(dev, RX_BYTES, &r->rx_dma, GFP_KERNEL, DMA_ATTR_NON_CONSISTENT);
	return 0;
}

static void ring_post(struct ring *r, unsigned int i)
{
	r->desc[i].len = RX_LEN;
	dma_cache_sync(r->dev, r->desc + i, sizeof(*r->desc), DMA_TO_DEVICE);
}

static void ring_rx(struct ring *r, unsigned int i)
{
	dma_cache_sync(r->dev, r->rx, RX_BYTES, DMA_FROM_DEVICE);
	consume(r->rx);
}

static void ring_fini(struct ring *r, struct device *dev)
{
	dma_free_attrs(dev, RING_BYTES, r->desc, r->desc_dma,
		       DMA_ATTR_NON_CONSISTENT);
	dma_free_attrs(dev, RX_BYTES, r->rx, r->rx_dma, DMA_ATTR_NON_CONSISTENT);
}
