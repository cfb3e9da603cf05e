package io.thriftbq.local.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * A JSON-over-HTTP client for the emulators' REST ports. Proxy settings of the environment are
 * ignored on purpose: every request goes to 127.0.0.1.
 */
public final class LoopbackHttp {
  public static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client =
      HttpClient.newBuilder()
          .proxy(ProxySelector.of(null))
          .connectTimeout(Duration.ofSeconds(2))
          .version(HttpClient.Version.HTTP_1_1)
          .build();
  private final String baseUrl;

  private static final int RESENDS = 2;

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
    return execute(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET(), true);
  }

  /** A POST that may change state more than once if sent twice (a publish): never resent. */
  Response post(String path, Object body) throws IOException {
    return send(HttpRequest.newBuilder(URI.create(baseUrl + path)), "POST", body, false);
  }

  /**
   * A POST that is safe to send twice: a read (a query) or a create that answers 409 when repeated.
   * Resent when the connection fails before an answer.
   */
  Response postIdempotent(String path, Object body) throws IOException {
    return send(HttpRequest.newBuilder(URI.create(baseUrl + path)), "POST", body, true);
  }

  Response put(String path, Object body) throws IOException {
    return send(HttpRequest.newBuilder(URI.create(baseUrl + path)), "PUT", body, true);
  }

  Response delete(String path) throws IOException {
    return execute(HttpRequest.newBuilder(URI.create(baseUrl + path)).DELETE(), true);
  }

  private Response send(HttpRequest.Builder builder, String method, Object body, boolean idempotent)
      throws IOException {
    String json = body == null ? "{}" : JSON.writeValueAsString(body);
    builder
        .method(method, HttpRequest.BodyPublishers.ofString(json))
        .header("Content-Type", "application/json");
    return execute(builder, idempotent);
  }

  /**
   * Sends the request; an idempotent one is resent up to {@value #RESENDS} times when the
   * connection fails before an answer. The emulators' servers (uvicorn) close keep-alive
   * connections they consider idle, and when their event loop was busy that can race with the next
   * request on the pooled connection ("header parser received no bytes"); the JDK client resends
   * only GETs by itself.
   */
  private Response execute(HttpRequest.Builder builder, boolean idempotent) throws IOException {
    HttpRequest request = builder.timeout(Duration.ofSeconds(60)).build();
    HttpResponse<String> response;
    for (int attempt = 0; ; attempt++) {
      try {
        response = client.send(request, HttpResponse.BodyHandlers.ofString());
        break;
      } catch (HttpTimeoutException e) {
        throw e;
      } catch (IOException e) {
        if (!idempotent || attempt >= RESENDS) {
          throw e;
        }
        sleep(Duration.ofMillis(100L << attempt));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
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

  private static void sleep(Duration pause) throws IOException {
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
