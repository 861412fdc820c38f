import java.io.BufferedReader;
import java.io.InputStreamReader;

/** The coffee machine of examples/models/coffee.aut in Java (a JVM keeps threads with timed
    waits, so quiescence falls back to the time-out). */
public class CoffeeSut {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int state = 0;
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.equals("water")) { if (state == 0) state = 1; }
            else if (line.equals("pad")) { if (state == 1) state = 2; }
            else if (line.equals("button")) {
                System.out.println(state == 2 ? "coffee" : "error");
                System.out.flush();
                state = 0;
            }
        }
    }
}
