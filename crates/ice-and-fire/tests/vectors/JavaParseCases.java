import java.util.*;
import java.util.regex.*;
public class JavaParseCases {
    static Pattern MSG = Pattern.compile("^MSG (.*)$");
    static Pattern MT = Pattern.compile("^(MOVE|TRAIN) ([0-9]+) ([0-9]+) ([0-9]+)$");
    static Pattern BD = Pattern.compile("^BUILD (MINE|TOWER) ([0-9]*) ([0-9]*)$");
    static String classify(String line) {
        List<String> out = new ArrayList<>();
        for (String raw : line.split(";")) {
            String p = raw.trim();
            if (p.equals("WAIT")) { out.add("W"); continue; }
            Matcher m = MSG.matcher(p);
            if (m.find()) { out.add("S:" + hex(p.substring(4))); continue; }
            m = MT.matcher(p);
            if (m.find()) {
                try {
                    int a = Integer.parseInt(m.group(2)), x = Integer.parseInt(m.group(3)), y = Integer.parseInt(m.group(4));
                    out.add((m.group(1).equals("MOVE") ? "M:" : "T:") + a + "," + x + "," + y); continue;
                } catch (NumberFormatException e) { return "F:" + hex(p); }
            }
            m = BD.matcher(p);
            if (m.find()) {
                try {
                    int x = Integer.parseInt(m.group(2)), y = Integer.parseInt(m.group(3));
                    out.add("B:" + m.group(1) + "," + x + "," + y); continue;
                } catch (NumberFormatException e) { return "F:" + hex(p); }
            }
            return "F:" + hex(p);
        }
        return String.join("|", out);
    }
    static String hex(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) { if (b.length() > 0) b.append('.'); b.append(Integer.toHexString(c)); }
        return b.toString();
    }
    public static void main(String[] args) {
        String[] alpha = {"MOVE","TRAIN","BUILD","MINE","TOWER","MSG","WAIT"," "," ",";",";","1","0","12","007","2147483647","2147483648","\t","\u2028","\u0085","\u2029","\u00a0","\r","\n","a","-","+","\u0000","\u001f","x"};
        Random r = new Random(1);
        for (int i = 0; i < 200000; i++) {
            int n = r.nextInt(12);
            StringBuilder s = new StringBuilder();
            for (int k = 0; k < n; k++) s.append(alpha[r.nextInt(alpha.length)]);
            // bias towards well-formed commands
            if (r.nextInt(3) == 0) s = new StringBuilder((r.nextBoolean() ? "MOVE " : "TRAIN ") + r.nextInt(20) + " " + r.nextInt(13) + " " + r.nextInt(13) + s);
            String line = s.toString();
            System.out.println(hex(line) + "\t" + classify(line));
        }
    }
}
