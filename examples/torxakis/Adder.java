import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TorXakis's Adder (examps/Adder, the SUT of its CNECTDEF SutConnection) as TorXakis runs
 * it: {@code java Adder PORT [MODE]} listens on PORT, serves one connection and exits, as
 * TorXakis's one-shot SUTs do (TorXakis starts it again for every test run). Each line is an
 * action as the CNECTDEF encodes it, {@code Plus(a,b)} or {@code Minus(a,b)}; the answer is
 * the result as a decimal line. MODE: {@code correct} (default), {@code wrong} (Minus adds),
 * {@code missing} (no answer to a Minus), {@code extra} (a second answer to a Plus).
 */
public class Adder {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String mode = args.length > 1 ? args[1] : "correct";
        Pattern call = Pattern.compile("^(Plus|Minus)\\((-?\\d+),(-?\\d+)\\)$");
        try (ServerSocket server = new ServerSocket(port);
             Socket conn = server.accept()) {
            BufferedReader in = new BufferedReader(new InputStreamReader(conn.getInputStream()));
            PrintWriter out = new PrintWriter(conn.getOutputStream(), true);
            String line;
            while ((line = in.readLine()) != null) {
                Matcher m = call.matcher(line.trim());
                if (!m.matches()) {
                    continue;
                }
                long a = Long.parseLong(m.group(2));
                long b = Long.parseLong(m.group(3));
                boolean plus = m.group(1).equals("Plus");
                if (!plus && mode.equals("missing")) {
                    continue;
                }
                long r = plus || mode.equals("wrong") ? a + b : a - b;
                out.println((int) r);
                if (plus && mode.equals("extra")) {
                    out.println((int) r);
                }
            }
        }
    }
}
