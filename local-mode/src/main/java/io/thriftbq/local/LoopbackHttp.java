package io.thriftbq.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A JSON-over-HTTP client for the emulators' REST ports. Proxy settings of the environment are
 * ignored on purpose: every request goes to 127.0.0.1.
 */
final class LoopbackHttp {
  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client =
      HttpClient.newBuilder()
          .proxy(ProxySelector.of(null))
          .connectTimeout(Duration.ofSeconds(2))
          .version(HttpClient.Version.HTTP_1_1)
          .build();
  private final String baseUrl;

  LoopbackHttp(int port) {
    this.baseUrl = "http://" + FreePorts.LOOPBACK + ":" + port;
  }

  String baseUrl() {
    return baseUrl;
  }

  /** Status code and parsed body (null when the body is empty or not JSON). */
  record Response(int status, JsonNode body, String raw) {
    boolean ok() {
      return status >= 200 && status < 300;
    }
  }

  Response get(String path) throws IOException {
    return execute(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET());
  }

  Response post(String path, Object body) throws IOException {
    return send(HttpRequest.newBuilder(URI.create(baseUrl + path)), "POST", body);
  }

  Response put(String path, Object body) throws IOException {
    return send(HttpRequest.newBuilder(URI.create(baseUrl + path)), "PUT", body);
  }

  Response delete(String path) throws IOException {
    return execute(HttpRequest.newBuilder(URI.create(baseUrl + path)).DELETE());
  }

  private Response send(HttpRequest.Builder builder, String method, Object body)
      throws IOException {
    String json = body == null ? "{}" : JSON.writeValueAsString(body);
    builder
        .method(method, HttpRequest.BodyPublishers.ofString(json))
        .header("Content-Type", "application/json");
    return execute(builder);
  }

  private Response execute(HttpRequest.Builder builder) throws IOException {
    HttpResponse<String> response;
    try {
      response =
          client.send(
              builder.timeout(Duration.ofSeconds(60)).build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    JsonNode parsed = null;
    String raw = response.body();
    if (raw != null && !raw.isBlank()) {
      try {
        parsed = JSON.readTree(raw);
      } catch (IOException notJson) {
        parsed = null;
      }
    }
    return new Response(response.statusCode(), parsed, raw);
  }
}
