package io.thriftbq.local.stack;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * A server that drops the first connection without answering, as uvicorn does when it closes a
 * keep-alive connection the client is just reusing: idempotent requests are resent, a publish is
 * not.
 */
public class LoopbackHttpTest {
  private ServerSocket server;
  private Thread acceptor;
  private final AtomicInteger connections = new AtomicInteger();
  private volatile int dropFirst;

  @Before
  public void startServer() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getByName(FreePorts.LOOPBACK));
    acceptor = new Thread(this::serve, "loopback-http-test-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  @After
  public void stopServer() throws Exception {
    server.close();
    acceptor.join(5000);
  }

  private void serve() {
    while (!server.isClosed()) {
      try (Socket socket = server.accept()) {
        InputStream in = socket.getInputStream();
        readRequest(in);
        if (connections.getAndIncrement() < dropFirst) {
          continue; // closes the socket without a byte of answer
        }
        byte[] body = "{\"answer\":42}".getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(
            ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                    + "Content-Length: "
                    + body.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
      } catch (IOException closed) {
        return;
      }
    }
  }

  /** Reads the request head and a Content-Length body, so the client sees its request taken. */
  private static void readRequest(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        return;
      }
      head.append((char) b);
    }
    for (String line : head.toString().split("\r\n")) {
      if (line.toLowerCase().startsWith("content-length:")) {
        in.readNBytes(Integer.parseInt(line.substring(line.indexOf(':') + 1).trim()));
      }
    }
  }

  private LoopbackHttp client() {
    return new LoopbackHttp(server.getLocalPort());
  }

  @Test
  public void idempotentPostIsResentAfterADroppedConnection() throws IOException {
    dropFirst = 2;
    LoopbackHttp.Response response = client().postIdempotent("/queries", Map.of("q", 1));
    assertEquals(200, response.status());
    assertEquals(42, response.body().path("answer").asInt());
    assertEquals(3, connections.get());
  }

  @Test
  public void idempotentRequestGivesUpAfterTheResends() {
    dropFirst = Integer.MAX_VALUE;
    assertThrows(IOException.class, () -> client().put("/topic", Map.of()));
    assertEquals(3, connections.get());
  }

  @Test
  public void publishIsNeverResent() {
    dropFirst = 1;
    assertThrows(IOException.class, () -> client().post("/topic:publish", Map.of()));
    assertEquals(1, connections.get());
  }
}
