package com.example.http5;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.io.entity.EntityUtils;

/** One GET through the pooled client. */
final class InventoryClient {
    private InventoryClient() {}

    static String fetch(CloseableHttpClient client, String url) throws Exception {
        return client.execute(new HttpGet(url), resp -> EntityUtils.toString(resp.getEntity()));
    }
}
