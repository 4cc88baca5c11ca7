package com.example.shop;

import java.io.IOException;

/** Product detail: the catalogue entry plus live stock from the inventory service. */
public final class ProductService {
    private final UpstreamClient inventory;
    private final Bulkhead bulkhead; // null = calls go straight through

    public ProductService(UpstreamClient inventory, Bulkhead bulkhead) {
        this.inventory = inventory;
        this.bulkhead = bulkhead;
    }

    public String productDetail(String productId) throws IOException, Bulkhead.FullException {
        String stock = bulkhead == null
                ? inventory.fetch("/inventory/" + productId)
                : bulkhead.call(() -> inventory.fetch("/inventory/" + productId));
        return "{\"product\":\"" + productId + "\",\"stock\":" + stock.trim() + "}\n";
    }
}
