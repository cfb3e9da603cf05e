package io.thriftbq.local.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Loopback port helpers: the local stack never binds or connects beyond 127.0.0.1. */
public final class FreePorts {
  public static final String LOOPBACK = "127.0.0.1";

  private FreePorts() {}

  /**
   * A port that was free on 127.0.0.1 a moment ago. Another process may take it before the emulator
   * binds it; the caller retries the start on a fresh port when that happens.
   */
  public static int pick() {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), 0));
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port on " + LOOPBACK, e);
    }
  }

  public static boolean isListening(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(LOOPBACK, port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
