package com.example.http4;

import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.util.EntityUtils;

/** One GET through the pooled client. */
final class InventoryClient {
    private InventoryClient() {}

    static String fetch(CloseableHttpClient client, String url) throws Exception {
        try (CloseableHttpResponse resp = client.execute(new HttpGet(url))) {
            return EntityUtils.toString(resp.getEntity());
        }
    }
}
