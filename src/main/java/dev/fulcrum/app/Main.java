package dev.fulcrum.app;

public final class Main {
    public static void main(String[] args) {
        System.out.println("hello");
    }
}
